import JSON

/// Tolerant readers for backend and push fields, because the SDKs have sent numbers as strings for years.
///
/// Each returns nil when the value cannot be read; the caller decides whether that is a warning.
enum Lenient {
  /// An integer from `1460786760`, `1460786760.0` or `"1460786760"` (surrounding whitespace allowed).
  static func int64(_ value: JSONValue?) -> Int64? {
    switch value {
    case .int(let number)?: return number
    case .double?: return value?.intValue
    case .string(let text)?:
      let trimmed = text.trimmingWhitespace()
      if let number = Int64(trimmed) { return number }
      if let number = Double(trimmed), number.rounded() == number, let exact = Int64(exactly: number) {
        return exact
      }
      return nil
    default: return nil
    }
  }

  /// A string that has something besides whitespace; nil for anything else.
  static func text(_ value: JSONValue?) -> String? {
    guard let text = value?.stringValue, !text.isBlank else { return nil }
    return text
  }

  /// An identifier from a non-blank string (trimmed) or an integer (`"abc"`, `59138176`).
  ///
  /// Integers are written in decimal, so an `order` beyond 2^53 keeps every digit.
  static func identifier(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text)?:
      let trimmed = text.trimmingWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    case .int(let number)?: return String(number)
    case .double(let number)?:
      guard let exact = Int64(exactly: number) else { return nil }
      return String(exact)
    default: return nil
    }
  }

  /// An object given either as an object or as a JSON-encoded string (`action_params`, `inbox_params`, `u`).
  ///
  /// Returns `.absent` for a missing value, null or a blank string, `.object` on success and `.invalid`
  /// with the reason otherwise.
  static func object(_ value: JSONValue?, name: String) -> ObjectReading {
    switch value {
    case nil, .null?: return .absent
    case .object(let object)?: return .object(object)
    case .string(let text)?:
      if text.isBlank { return .absent }
      let parsed: JSONValue
      do {
        parsed = try JSONValue.parse(text)
      } catch {
        return .invalid("\(name) is a string that is not valid JSON (\(error.description))")
      }
      guard case .object(let object) = parsed else {
        return .invalid("\(name) is a JSON string that decodes to \(article(parsed.typeName)), not an object")
      }
      return .object(object)
    case let other?:
      return .invalid("\(name) is \(article(other.typeName)), not an object")
    }
  }

  /// The outcome of `object(_:name:)`.
  enum ObjectReading: Equatable {
    case absent
    case object(JSONObject)
    case invalid(String)
  }

  /// "an array", "a string": the type name with its article, for reasons.
  static func article(_ typeName: String) -> String {
    let vowel = typeName.first.map { "aeiou".contains($0) } ?? false
    return (vowel ? "an " : "a ") + typeName
  }
}
