import JSON

extension SchemaValidator {
  static let sizeKeywords: [Keyword] = [
    bound("minProperties", .atLeast, .members) { "needs at least \($0) member(s)" },
    bound("maxProperties", .atMost, .members, saysMeasure: true) { "at most \($0) member(s), got " },
    bound("minItems", .atLeast, .items) { "needs at least \($0) item(s)" },
    bound("maxItems", .atMost, .items, saysMeasure: true) { "at most \($0) item(s), got " },
    bound("minimum", .atLeast, .number) { "must be at least \($0)" },
    bound("maximum", .atMost, .number) { "must be at most \($0)" },
    bound("exclusiveMinimum", .above, .number) { "must be more than \($0)" },
    bound("exclusiveMaximum", .below, .number) { "must be less than \($0)" },
    Keyword(name: "multipleOf") { value, _, _ in
      .size(.multipleOf(value, expected: "must be a multiple of \(value.jsonString)"))
    },
    bound("minLength", .atLeast, .length) { "needs at least \($0) character(s)" },
    bound("maxLength", .atMost, .length) { "at most \($0) character(s)" },
    Keyword(name: "pattern") { value, _, _ in
      guard let source = value.stringValue else { return nil }
      guard let pattern = Pattern.compiled(source) else {
        return .size(.unreadablePattern(message: "the schema's pattern \(source) cannot be read"))
      }
      return .size(.pattern(pattern, expected: "must match \(source)"))
    },
  ]

  /// A keyword that bounds a size or a number: a measure on the wrong `side` of the schema's limit
  /// is a violation, worded by `message` from the limit as written, then the measure when it `saysMeasure`.
  private static func bound(
    _ name: String, _ side: SizeCheck.Side, _ measure: SizeCheck.Measure, saysMeasure: Bool = false,
    message: @escaping @Sendable (_ limit: String) -> String
  ) -> Keyword {
    Keyword(name: name) { value, _, _ in
      guard let limit = value.doubleValue else { return nil }
      let bound = SizeCheck.Bound(
        rule: name, side: side, measure: measure, limit: limit, message: message(value.jsonString),
        saysMeasure: saysMeasure)
      return .size(.bound(bound))
    }
  }
}

/// The sizes and numbers: the bounds, `multipleOf` and `pattern`.
enum SizeCheck: Sendable {
  case bound(Bound)
  case multipleOf(JSONValue, expected: String)
  case pattern(Pattern, expected: String)
  case unreadablePattern(message: String)

  enum Side: Sendable { case atLeast, atMost, above, below }

  /// What a bound measures; a value of another type has no measure, and the bound does not apply.
  enum Measure: Sendable {
    case members, items, number
    /// A string's length is its count of code points, as JSON Schema counts it.
    case length

    func of(_ value: JSONValue) -> Double? {
      switch (self, value.plain) {
      case (.members, .object(let object)): Double(object.count)
      case (.items, .array(let items)): Double(items.count)
      case (.number, .int(let number)): Double(number)
      case (.number, .double(let number)): number
      case (.length, .string(let text)): Double(text.unicodeScalars.count)
      default: nil
      }
    }
  }

  struct Bound: Sendable {
    let rule: String
    let side: Side
    let measure: Measure
    let limit: Double
    let message: String
    let saysMeasure: Bool

    func failure(of value: JSONValue, at place: SchemaPlace) -> SchemaFailure? {
      guard let measured = measure.of(value) else { return nil }
      let broken =
        switch side {
        case .atLeast: measured < limit
        case .atMost: measured > limit
        case .above: measured <= limit
        case .below: measured >= limit
        }
      guard broken else { return nil }
      return SchemaFailure(place, rule, saysMeasure ? .count(message, Int(measured)) : .text(message))
    }
  }

  func failure(of value: JSONValue, at place: SchemaPlace) -> SchemaFailure? {
    switch self {
    case .bound(let bound):
      return bound.failure(of: value, at: place)
    case .multipleOf(let divisor, let expected):
      return Self.isMultiple(value, of: divisor) == false ? SchemaFailure(place, "multipleOf", .text(expected)) : nil
    case .pattern(let pattern, let expected):
      guard case .string(let text) = value.plain else { return nil }
      return pattern.matches(text) ? nil : SchemaFailure(place, "pattern", .text(expected))
    case .unreadablePattern(let message):
      guard case .string = value.plain else { return nil }
      return SchemaFailure(place, "pattern", .text(message))
    }
  }

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
