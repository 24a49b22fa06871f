import JSON

extension JSONValue {
  /// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by value
  /// (`1 == 1.0`, `0 == -0.0`), strings by their code points (not Swift's canonical equivalence,
  /// under which `"é"` precomposed equals `"e\u{301}"`), arrays item by item, objects member by
  /// member whatever their order.
  func equalsInSchema(_ other: JSONValue) -> Bool {
    switch (plain, other.plain) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Self.equal(a, b)
    case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.equalsInSchema($1) }
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      return a.members.allSatisfy { member in
        let twin = b.members.first { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) }
        return twin?.value.equalsInSchema(member.value) ?? false
      }
    default: return false
    }
  }

  /// An integer and a double are equal when the double is that integer exactly (no rounding of
  /// large integers into a nearby double).
  private static func equal(_ integer: Int64, _ number: Double) -> Bool {
    guard number.rounded() == number, number >= -0x1p63, number < 0x1p63 else { return false }
    return Int64(number) == integer
  }
}
