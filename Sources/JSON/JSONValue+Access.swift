// Typed reads of a JSONValue. Each returns nil when the value has another type, so
// callers decide how lenient to be.

extension JSONValue {
  /// The value itself, or the value a `.prebuilt` one was made from.
  public var plain: JSONValue {
    if case .prebuilt(let built) = self { return built.value }
    return self
  }

  public var isNull: Bool {
    if case .null = plain { return true }
    return false
  }

  public var boolValue: Bool? {
    if case .bool(let value) = plain { return value }
    return nil
  }

  /// The integer, also from a double with no fractional part that fits in 64 bits.
  public var intValue: Int64? {
    switch plain {
    case .int(let value): return value
    case .double(let value):
      guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
      return exact
    default: return nil
    }
  }

  public var doubleValue: Double? {
    switch plain {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  public var stringValue: String? {
    if case .string(let value) = plain { return value }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let value) = plain { return value }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let value) = plain { return value }
    return nil
  }

  /// The member `key` of an object; nil for a missing key or a non-object.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The JSON type's name, for error messages ("expected string, got array").
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .int: return "integer"
    case .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    case .prebuilt(let built): return built.value.typeName
    }
  }
}
