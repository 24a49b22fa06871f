import JSON

extension SchemaValidator {
  /// Every keyword, in the order they are tried (so the first violation is the one reported):
  /// kind checks first, then members and items (deeper places), then sizes and combinators.
  static let keywords: [Keyword] =
    kindKeywords + objectKeywords + memberNameKeywords + arrayKeywords + sizeKeywords + combinators

  private static let kindKeywords: [Keyword] = [
    Keyword(name: "type") { value, _, _ in
      let allowed = (value.arrayValue ?? [value]).compactMap(\.stringValue)
      let types = allowed.reduce(into: JSONTypes()) { $0.formUnion(JSONTypes(named: $1)) }
      return TypeCheck(types, expected: "expected \(allowed.joined(separator: " or ")), got ")
    },
    Keyword(name: "enum") { value, _, _ in
      let options = value.arrayValue ?? []
      let listed = options.map(\.jsonString).joined(separator: ", ")
      return EnumCheck(options, expected: "must be one of \(listed), got ")
    },
    Keyword(name: "const") { value, _, _ in ConstCheck(value, expected: "must be \(value.jsonString)") },
  ]
}

/// `type`: the value is of one of the types listed.
final class TypeCheck: SingleFailureCheck {
  let types: JSONTypes
  let expected: String

  init(_ types: JSONTypes, expected: String) {
    self.types = types
    self.expected = expected
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    types.admit(value) ? nil : SchemaFailure(place, "type", .typeName(expected, of: value))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool { types.admit(value) }
}

/// `enum`: the value equals one of those listed.
final class EnumCheck: SingleFailureCheck {
  let options: [JSONValue]
  let expected: String

  init(_ options: [JSONValue], expected: String) {
    self.options = options
    self.expected = expected
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    admits(value, depth: depth, compiler) ? nil : SchemaFailure(place, "enum", .json(expected, of: value))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    options.contains(where: value.equalsInSchema)
  }
}

/// `const`: the value equals the one given.
final class ConstCheck: SingleFailureCheck {
  let constant: JSONValue
  let expected: String

  init(_ constant: JSONValue, expected: String) {
    self.constant = constant
    self.expected = expected
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    constant.equalsInSchema(value) ? nil : SchemaFailure(place, "const", .text(expected))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool { constant.equalsInSchema(value) }
}

/// The JSON types `type` allows, as a set of bits.
struct JSONTypes: OptionSet, Sendable {
  let rawValue: UInt8
  static let null = JSONTypes(rawValue: 1 << 0)
  static let boolean = JSONTypes(rawValue: 1 << 1)
  static let string = JSONTypes(rawValue: 1 << 2)
  static let array = JSONTypes(rawValue: 1 << 3)
  static let object = JSONTypes(rawValue: 1 << 4)
  static let integer = JSONTypes(rawValue: 1 << 5)
  static let number = JSONTypes(rawValue: 1 << 6)

  init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A type's name as a schema writes it; none for a name JSON Schema does not have.
  init(named name: String) {
    let names: [String: JSONTypes] = [
      "null": .null, "boolean": .boolean, "string": .string, "array": .array, "object": .object,
      "integer": .integer, "number": .number,
    ]
    self = names[name] ?? []
  }

  /// An integer is a number, and a double with no fraction is an integer.
  func admit(_ value: JSONValue) -> Bool {
    switch value.plain {
    case .null: contains(.null)
    case .bool: contains(.boolean)
    case .string: contains(.string)
    case .array: contains(.array)
    case .object: contains(.object)
    case .int: !isDisjoint(with: [.integer, .number])
    case .double(let number): contains(.number) || (contains(.integer) && number.rounded() == number)
    case .prebuilt: false
    }
  }
}
