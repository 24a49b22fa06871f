import JSON

extension SchemaValidator {
  /// The keywords that apply other schemas to the same value.
  static let combinators: [Keyword] = [
    Keyword(name: "allOf") { validator, value, rules, place, depth in
      for schema in rules["allOf"]?.arrayValue ?? [] {
        if let found = validator.check(value, schema, place, depth: depth + 1) { return found }
      }
      return nil
    },
    Keyword(name: "anyOf") { validator, value, rules, place, depth in
      var failures: [SchemaViolation] = []
      for option in rules["anyOf"]?.arrayValue ?? [] {  // the first shape that fits ends the search
        guard let failure = validator.check(value, option, place, depth: depth + 1) else { return nil }
        failures.append(failure)
      }
      guard let closest = failures.max(by: { $0.closeness < $1.closeness }) else { return nil }
      return closest.path == place.path
        ? SchemaViolation(place, "anyOf", "matches none of the allowed shapes") : closest
    },
    Keyword(name: "oneOf") { validator, value, rules, place, depth in
      let options = rules["oneOf"]?.arrayValue ?? []
      let failures = options.map { validator.check(value, $0, place, depth: depth + 1) }
      let matches = failures.filter { $0 == nil }.count
      if matches == 1 { return nil }
      if matches > 1 { return SchemaViolation(place, "oneOf", "matches more than one of the allowed shapes") }
      // The variant that got deepest before failing is the one the host most likely meant.
      let closest = failures.compactMap { $0 }.max(by: { $0.closeness < $1.closeness })
      if let closest, closest.path != place.path { return closest }
      return SchemaViolation(place, "oneOf", "matches none of the allowed shapes")
    },
    Keyword(name: "not") { validator, value, rules, place, depth in
      guard let schema = rules["not"], validator.check(value, schema, place, depth: depth + 1) == nil else {
        return nil
      }
      return SchemaViolation(place, "not", "this value is not allowed here")
    },
    // `then` applies when `if` holds, `else` when it does not; either alone does nothing.
    Keyword(name: "if") { validator, value, rules, place, depth in
      guard let condition = rules["if"] else { return nil }
      let holds = validator.check(value, condition, place, depth: depth + 1) == nil
      guard let branch = rules[holds ? "then" : "else"] else { return nil }
      return validator.check(value, branch, place, depth: depth + 1)
    },
  ]
}

extension SchemaViolation {
  /// How far a value got into a variant before failing: a mismatched discriminator (`const`, `enum`,
  /// `type`) means "another variant", anything else means "this variant, with a mistake inside";
  /// then deeper is closer.
  fileprivate var closeness: (Int, Int) {
    let wrongVariant = ["const", "enum", "type"].contains(rule)
    return (wrongVariant ? 0 : 1, pointer.tokens.count)
  }
}
