import JSON

extension SchemaValidator {
  /// The keywords that apply other schemas to the same value.
  static let combinators: [Keyword] = [
    Keyword(name: "allOf") { value, _, compiler in
      guard let schemas = value.arrayValue, !schemas.isEmpty else { return nil }
      return .combinator(.allOf(schemas.map(compiler.node(for:))))
    },
    // The first shape that fits ends the search; an empty list allows anything.
    Keyword(name: "anyOf") { value, _, compiler in
      guard let options = value.arrayValue, !options.isEmpty else { return nil }
      return .combinator(.anyOf(options.map(compiler.node(for:))))
    },
    // An empty list (or not a list) allows nothing: no option matches.
    Keyword(name: "oneOf") { value, _, compiler in
      .combinator(.oneOf((value.arrayValue ?? []).map(compiler.node(for:))))
    },
    Keyword(name: "not") { value, _, compiler in .combinator(.not(compiler.node(for: value))) },
    // `then` applies when `if` holds, `else` when it does not; either alone does nothing.
    Keyword(name: "if") { value, rules, compiler in
      .combinator(
        .conditional(
          compiler.node(for: value), then: rules["then"].map(compiler.node(for:)),
          else: rules["else"].map(compiler.node(for:))))
    },
  ]
}

/// What the combinators check; each option is tried at the same place, one level deeper.
enum Combinator: Sendable {
  case allOf([SchemaNode])
  case anyOf([SchemaNode])
  case oneOf([SchemaNode])
  case not(SchemaNode)
  case conditional(SchemaNode, then: SchemaNode?, else: SchemaNode?)

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    switch self {
    case .allOf(let nodes):
      for node in nodes {
        if let found = node.failure(of: value, at: place, depth: depth + 1, compiler) { return found }
      }
      return nil
    case .anyOf(let options):
      var closest: SchemaFailure?
      for option in options {
        guard let failure = option.failure(of: value, at: place, depth: depth + 1, compiler) else { return nil }
        closest = Self.closer(closest, failure)
      }
      return Self.reported(closest, at: place, "anyOf")
    case .oneOf(let options):
      var matched = false
      var closest: SchemaFailure?
      for option in options {
        if let failure = option.failure(of: value, at: place, depth: depth + 1, compiler) {
          closest = Self.closer(closest, failure)
        } else if matched {
          return SchemaFailure(place, "oneOf", .text("matches more than one of the allowed shapes"))
        } else {
          matched = true
        }
      }
      return matched ? nil : Self.reported(closest, at: place, "oneOf")
    case .not(let node):
      guard node.failure(of: value, at: place, depth: depth + 1, compiler) == nil else { return nil }
      return SchemaFailure(place, "not", .text("this value is not allowed here"))
    case .conditional(let condition, let then, let otherwise):
      let holds = condition.failure(of: value, at: place, depth: depth + 1, compiler) == nil
      return (holds ? then : otherwise)?.failure(of: value, at: place, depth: depth + 1, compiler)
    }
  }

  /// The closer of two failing options; of equals, the earlier.
  private static func closer(_ earlier: SchemaFailure?, _ later: SchemaFailure) -> SchemaFailure {
    guard let earlier, earlier.closeness >= later.closeness else { return later }
    return earlier
  }

  /// When no option fits: the variant that got deepest before failing is the one the host most
  /// likely meant; one that failed at this very place says nothing more than the combinator.
  private static func reported(_ closest: SchemaFailure?, at place: SchemaPlace, _ rule: String) -> SchemaFailure {
    if let closest, !closest.place.spellsSamePath(as: place) { return closest }
    return SchemaFailure(place, rule, .text("matches none of the allowed shapes"))
  }
}
