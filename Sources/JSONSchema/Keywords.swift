import JSON

extension SchemaValidator {
  /// Every keyword, in the order they are tried (so the first violation is the one reported):
  /// kind checks first, then members and items (deeper places), then sizes and combinators.
  static let keywords: [Keyword] =
    kindKeywords + objectKeywords + memberNameKeywords + arrayKeywords + sizeKeywords + combinators

  private static let kindKeywords: [Keyword] = [
    Keyword(name: "type") { value, _, _ in
      let allowed = (value.arrayValue ?? [value]).compactMap(\.stringValue)
      let types = allowed.reduce(into: KindCheck.Types()) { $0.formUnion(KindCheck.Types(named: $1)) }
      return .kind(.type(types, expected: "expected \(allowed.joined(separator: " or ")), got "))
    },
    Keyword(name: "enum") { value, _, _ in
      let options = value.arrayValue ?? []
      let listed = options.map(\.jsonString).joined(separator: ", ")
      return .kind(.oneOfValues(options, expected: "must be one of \(listed), got "))
    },
    Keyword(name: "const") { value, _, _ in .kind(.value(value, expected: "must be \(value.jsonString)")) },
  ]
}

/// `type`, `enum` and `const`: what kind of value this is.
enum KindCheck: Sendable {
  case type(Types, expected: String)
  case oneOfValues([JSONValue], expected: String)
  case value(JSONValue, expected: String)

  /// The JSON types `type` allows, as a set of bits.
  struct Types: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = Types(rawValue: 1 << 0)
    static let boolean = Types(rawValue: 1 << 1)
    static let string = Types(rawValue: 1 << 2)
    static let array = Types(rawValue: 1 << 3)
    static let object = Types(rawValue: 1 << 4)
    static let integer = Types(rawValue: 1 << 5)
    static let number = Types(rawValue: 1 << 6)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A type's name as a schema writes it; none for a name JSON Schema does not have.
    init(named name: String) {
      let names: [String: Types] = [
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

  func failure(of value: JSONValue, at place: SchemaPlace) -> SchemaFailure? {
    switch self {
    case .type(let types, let expected):
      types.admit(value) ? nil : SchemaFailure(place, "type", .typeName(expected, of: value))
    case .oneOfValues(let options, let expected):
      options.contains(where: value.equalsInSchema) ? nil : SchemaFailure(place, "enum", .json(expected, of: value))
    case .value(let constant, let expected):
      constant.equalsInSchema(value) ? nil : SchemaFailure(place, "const", .text(expected))
    }
  }
}
