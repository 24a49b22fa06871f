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
      MultipleOfCheck(value, expected: "must be a multiple of \(value.jsonString)")
    },
    bound("minLength", .atLeast, .length) { "needs at least \($0) character(s)" },
    bound("maxLength", .atMost, .length) { "at most \($0) character(s)" },
    Keyword(name: "pattern") { value, rules, _ in
      guard let source = value.stringValue else { return nil }
      guard let pattern = Pattern.compiled(source) else {
        return PatternCheck(nil, message: "the schema's pattern \(source) cannot be read")
      }
      // A pattern that stands for a list of words is said as the list, with the value it got.
      guard let words = PatternWords.describe(source, description: rules["description"]?.stringValue) else {
        return PatternCheck(pattern, message: "must match \(source)")
      }
      return PatternCheck(pattern, message: words + ", got ", showsValue: true)
    },
  ]

  /// A keyword that bounds a size or a number: a measure on the wrong `side` of the schema's limit
  /// is a violation, worded by `message` from the limit as written, then the measure when it `saysMeasure`.
  private static func bound(
    _ name: String, _ side: BoundCheck.Side, _ measure: BoundCheck.Measure, saysMeasure: Bool = false,
    message: @escaping @Sendable (_ limit: String) -> String
  ) -> Keyword {
    Keyword(name: name) { value, _, _ in
      guard let limit = value.doubleValue else { return nil }
      return BoundCheck(
        rule: name, side: side, measure: measure, limit: limit, message: message(value.jsonString),
        saysMeasure: saysMeasure)
    }
  }
}

/// A bound on a size or a number (`minItems`, `maximum`, `maxLength`, ...).
final class BoundCheck: SingleFailureCheck {
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

  let rule: String
  let side: Side
  let measure: Measure
  let limit: Double
  let message: String
  let saysMeasure: Bool

  init(rule: String, side: Side, measure: Measure, limit: Double, message: String, saysMeasure: Bool) {
    self.rule = rule
    self.side = side
    self.measure = measure
    self.limit = limit
    self.message = message
    self.saysMeasure = saysMeasure
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard let measured = measure.of(value), breaks(measured) else { return nil }
    return SchemaFailure(place, rule, saysMeasure ? .count(message, Int(measured)) : .text(message))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard let measured = measure.of(value) else { return true }
    return !breaks(measured)
  }

  private func breaks(_ measured: Double) -> Bool {
    switch side {
    case .atLeast: measured < limit
    case .atMost: measured > limit
    case .above: measured <= limit
    case .below: measured >= limit
    }
  }
}

/// `multipleOf`.
final class MultipleOfCheck: SingleFailureCheck {
  let divisor: JSONValue
  let expected: String

  init(_ divisor: JSONValue, expected: String) {
    self.divisor = divisor
    self.expected = expected
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    isMultiple(value) == false ? SchemaFailure(place, "multipleOf", .text(expected)) : nil
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool { isMultiple(value) != false }

  /// Nil when `value` is not a number; integers divide exactly, others when the quotient is a
  /// whole (finite) number.
  private func isMultiple(_ value: JSONValue) -> Bool? {
    if case .int(let number) = value.plain, case .int(let step) = divisor.plain, step != 0 {
      return number % step == 0
    }
    guard let number = value.doubleValue, let step = divisor.doubleValue, step != 0 else { return nil }
    let quotient = number / step
    return quotient.isFinite && quotient.rounded() == quotient
  }
}

/// `pattern`, on strings; a pattern that cannot be read (nil) refuses every string, saying so.
final class PatternCheck: SingleFailureCheck {
  let pattern: Pattern?
  let message: String
  /// Whether the message ends with the value as JSON.
  let showsValue: Bool

  init(_ pattern: Pattern?, message: String, showsValue: Bool = false) {
    self.pattern = pattern
    self.message = message
    self.showsValue = showsValue
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard !admits(value, depth: depth, compiler) else { return nil }
    return SchemaFailure(place, "pattern", showsValue ? .json(message, of: value) : .text(message))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .string(let text) = value.plain else { return true }
    return pattern?.matches(text) == true
  }
}
