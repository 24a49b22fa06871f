import JSON

extension SchemaValidator {
  /// Every keyword, in the order they are tried (so the first violation is the one reported):
  /// kind checks first, then members and items (deeper places), then sizes and combinators.
  static let keywords: [Keyword] =
    kindKeywords + objectKeywords + memberNameKeywords + arrayKeywords + sizeKeywords + combinators

  private static let kindKeywords: [Keyword] = [
    Keyword(name: "type") { _, value, rules, place, _ in
      let allowed = (rules["type"]?.arrayValue ?? [rules["type"] ?? .null]).compactMap(\.stringValue)
      guard !allowed.contains(where: { matches(value, type: $0) }) else { return nil }
      return SchemaViolation(place, "type", "expected \(allowed.joined(separator: " or ")), got \(value.typeName)")
    },
    Keyword(name: "enum") { _, value, rules, place, _ in
      let options = rules["enum"]?.arrayValue ?? []
      guard !options.contains(where: value.equalsInSchema) else { return nil }
      let listed = options.map(\.jsonString).joined(separator: ", ")
      return SchemaViolation(place, "enum", "must be one of \(listed), got \(value.jsonString)")
    },
    Keyword(name: "const") { _, value, rules, place, _ in
      guard let constant = rules["const"], !constant.equalsInSchema(value) else { return nil }
      return SchemaViolation(place, "const", "must be \(constant.jsonString)")
    },
  ]

  private static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value.plain) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
    case ("integer", .int), ("number", .int), ("number", .double): return true
    case ("integer", .double(let number)): return number.rounded() == number
    default: return false
    }
  }

  // MARK: - Sizes and numbers

  enum Side { case atLeast, atMost, above, below }

  /// What the size keywords measure; nil for a value of another type.
  private static let memberCount: @Sendable (JSONValue) -> Double? = { $0.objectValue.map { Double($0.count) } }
  private static let itemCount: @Sendable (JSONValue) -> Double? = { $0.arrayValue.map { Double($0.count) } }
  /// A string's length is its count of code points, as JSON Schema counts it.
  private static let length: @Sendable (JSONValue) -> Double? = {
    $0.stringValue.map { Double($0.unicodeScalars.count) }
  }

  /// A keyword that bounds a size or a number: `measure` reads it off the value (nil: the keyword
  /// does not apply to that type); a measure on the wrong `side` of the schema's limit is a
  /// violation, worded by `message` from the limit as written and the measure.
  static func bound(
    _ name: String, _ side: Side, _ measure: @escaping @Sendable (JSONValue) -> Double?,
    message: @escaping @Sendable (_ limit: String, _ measured: Double) -> String
  ) -> Keyword {
    Keyword(name: name) { _, value, rules, place, _ in
      guard let measured = measure(value), let limit = rules[name], let bound = limit.doubleValue else { return nil }
      let broken =
        switch side {
        case .atLeast: measured < bound
        case .atMost: measured > bound
        case .above: measured <= bound
        case .below: measured >= bound
        }
      return broken ? SchemaViolation(place, name, message(limit.jsonString, measured)) : nil
    }
  }

  private static let sizeKeywords: [Keyword] = [
    bound("minProperties", .atLeast, memberCount) { limit, _ in "needs at least \(limit) member(s)" },
    bound("maxProperties", .atMost, memberCount) { limit, measured in
      "at most \(limit) member(s), got \(Int(measured))"
    },
    bound("minItems", .atLeast, itemCount) { limit, _ in "needs at least \(limit) item(s)" },
    bound("maxItems", .atMost, itemCount) { "at most \($0) item(s), got \(Int($1))" },
    bound("minimum", .atLeast, \.doubleValue) { limit, _ in "must be at least \(limit)" },
    bound("maximum", .atMost, \.doubleValue) { limit, _ in "must be at most \(limit)" },
    bound("exclusiveMinimum", .above, \.doubleValue) { limit, _ in "must be more than \(limit)" },
    bound("exclusiveMaximum", .below, \.doubleValue) { limit, _ in "must be less than \(limit)" },
    Keyword(name: "multipleOf") { _, value, rules, place, _ in
      guard let divisor = rules["multipleOf"], isMultiple(value, of: divisor) == false else { return nil }
      return SchemaViolation(place, "multipleOf", "must be a multiple of \(divisor.jsonString)")
    },
    bound("minLength", .atLeast, length) { limit, _ in "needs at least \(limit) character(s)" },
    bound("maxLength", .atMost, length) { limit, _ in "at most \(limit) character(s)" },
    Keyword(name: "pattern") { _, value, rules, place, _ in
      guard case .string(let text) = value.plain, let source = rules["pattern"]?.stringValue else { return nil }
      guard let pattern = Pattern.compiled(source) else {
        return SchemaViolation(place, "pattern", "the schema's pattern \(source) cannot be read")
      }
      return pattern.matches(text) ? nil : SchemaViolation(place, "pattern", "must match \(source)")
    },
  ]

  /// Nil when `value` is not a number; integers divide exactly, others when the quotient is a
  /// whole (finite) number.
  private static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool? {
    if case .int(let number) = value.plain, case .int(let step) = divisor.plain, step != 0 {
      return number % step == 0
    }
    guard let number = value.doubleValue, let step = divisor.doubleValue, step != 0 else { return nil }
    let quotient = number / step
    return quotient.isFinite && quotient.rounded() == quotient
  }
}
