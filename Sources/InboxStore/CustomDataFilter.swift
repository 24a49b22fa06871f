import JSON

/// Which messages a tab shows: those whose custom data (`u`, as the card's `customData`) has each
/// of these top-level keys equal to the given value. Values are strings, numbers or booleans,
/// compared as JSON values (`3` equals `3.0`, `"3"` does not); a key whose value is an object, an
/// array or null never matches. Nothing richer (nested paths, ranges, "any of"): a filtered page
/// must stay one seek of the store's tag index (`message_tags`), which holds one row per scalar
/// top-level key of each message.
public struct CustomDataFilter: Sendable, Hashable {
  /// Each key with its value's canonical text (`canonical(_:)`), in the order the host gave them.
  public let terms: [(key: String, value: String)]

  /// At most this many keys: each past the first costs a look-up per candidate row.
  public static let maxKeys = 8

  /// Why a filter object was refused.
  public struct Invalid: Error, Sendable, Hashable {
    public var key: String
    public var reason: String
  }

  /// The filter `object` describes; an empty object is no filter (nil).
  public init?(_ object: JSONObject) throws(Invalid) {
    guard !object.isEmpty else { return nil }
    guard object.count <= Self.maxKeys else {
      throw Invalid(key: "", reason: "at most \(Self.maxKeys) keys")
    }
    var terms: [(key: String, value: String)] = []
    for member in object {
      guard let value = Self.canonical(member.value) else {
        throw Invalid(key: member.key, reason: "a value must be a string, a number or a boolean")
      }
      terms.append((member.key, value))
    }
    self.terms = terms
  }

  /// Equal filters select the same messages whatever their keys' order.
  public static func == (lhs: CustomDataFilter, rhs: CustomDataFilter) -> Bool { lhs.sortedText == rhs.sortedText }

  public func hash(into hasher: inout Hasher) { hasher.combine(sortedText) }

  /// A short digest of the filter, keys sorted: what a cursor carries to refuse another filter.
  public var fingerprint: String { FeedCursor.checksum(sortedText) }

  private var sortedText: String {
    terms.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).jsonString + ":" + $0.value }.joined(
      separator: ",")
  }

  /// The filter as a host writes it.
  public var json: JSONValue {
    .object(
      JSONObject(terms.map { ($0.key, (try? JSONValue.parse($0.value)) ?? .null) }))
  }

  /// The text a value is stored and compared as: JSON, with an integral number written as an
  /// integer, so `3` and `3.0` are one value. Nil for values no filter can name.
  static func canonical(_ value: JSONValue) -> String? {
    switch value {
    case .string, .bool, .int: return value.jsonString
    case .double(let number):
      if number.rounded() == number, abs(number) < 9.0e15 { return String(Int64(number)) }
      return number.isFinite ? value.jsonString : nil
    case .prebuilt: return canonical((try? JSONValue.parse(value.jsonString)) ?? .null)
    case .null, .array, .object: return nil
    }
  }

  /// What the store keeps of a message's custom data: each scalar top-level key (the first of a
  /// key given twice) with its value's canonical text, one `message_tags` row each.
  static func tags(of customData: JSONObject?) -> [(key: String, value: String)] {
    guard let customData else { return [] }
    var seen = Set<String>()
    return customData.compactMap { member -> (key: String, value: String)? in
      guard seen.insert(member.key).inserted, let value = customData[member.key].flatMap(canonical) else { return nil }
      return (member.key, value)
    }
  }

  /// `tags` as `messages.tags` keeps them: a JSON object of each key and its canonical text; nil
  /// when there is none.
  static func column(_ tags: [(key: String, value: String)]) -> String? {
    tags.isEmpty ? nil : JSONValue.object(JSONObject(tags.map { ($0.key, .string($0.value)) })).jsonString
  }
}
