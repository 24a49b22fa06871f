import JSON

extension SchemaValidator {
  /// The keywords that apply other schemas to the same value.
  static let combinators: [Keyword] = [
    Keyword(name: "allOf") { value, _, compiler in
      guard let schemas = value.arrayValue, !schemas.isEmpty else { return nil }
      return AllOfCheck(schemas.map(compiler.node(for:)))
    },
    // The first shape that fits ends the search; an empty list allows anything.
    Keyword(name: "anyOf") { value, _, compiler in
      guard let options = value.arrayValue, !options.isEmpty else { return nil }
      return AnyOfCheck(options.map(compiler.node(for:)))
    },
    // An empty list (or not a list) allows nothing: no option matches.
    Keyword(name: "oneOf") { value, _, compiler in
      OneOfCheck((value.arrayValue ?? []).map(compiler.node(for:)))
    },
    Keyword(name: "not") { value, _, compiler in NotCheck(compiler.node(for: value)) },
    // `then` applies when `if` holds, `else` when it does not; either alone does nothing.
    Keyword(name: "if") { value, rules, compiler in
      IfCheck(
        compiler.node(for: value), then: rules["then"].map(compiler.node(for:)),
        else: rules["else"].map(compiler.node(for:)))
    },
  ]
}

// Each combinator tries its schemas on the same value at the same place, one level deeper.

/// `allOf`.
final class AllOfCheck: SchemaCheck {
  let nodes: [SchemaNode]

  init(_ nodes: [SchemaNode]) { self.nodes = nodes }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    for node in nodes {
      if let found = node.failure(of: value, at: place, depth: depth + 1, compiler) { return found }
    }
    return nil
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    nodes.allSatisfy { $0.admits(value, depth: depth + 1, compiler) }
  }
}

/// `anyOf`.
final class AnyOfCheck: SchemaCheck {
  let options: [SchemaNode]

  init(_ options: [SchemaNode]) { self.options = options }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    var closest: SchemaFailure?
    for option in options {
      guard let failure = option.failure(of: value, at: place, depth: depth + 1, compiler) else { return nil }
      closest = closer(closest, failure)
    }
    return reported(closest, at: place, "anyOf")
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    options.contains { $0.admits(value, depth: depth + 1, compiler) }
  }
}

/// `oneOf`.
final class OneOfCheck: SchemaCheck {
  let options: [SchemaNode]

  init(_ options: [SchemaNode]) { self.options = options }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    var matched = false
    var closest: SchemaFailure?
    for option in options {
      if let failure = option.failure(of: value, at: place, depth: depth + 1, compiler) {
        closest = closer(closest, failure)
      } else if matched {
        return SchemaFailure(place, "oneOf", .text("matches more than one of the allowed shapes"))
      } else {
        matched = true
      }
    }
    return matched ? nil : reported(closest, at: place, "oneOf")
  }

  /// Exactly one option fits.
  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    var matched = false
    for option in options where option.admits(value, depth: depth + 1, compiler) {
      if matched { return false }
      matched = true
    }
    return matched
  }
}

/// `not`.
final class NotCheck: SchemaCheck {
  let node: SchemaNode

  init(_ node: SchemaNode) { self.node = node }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard node.failure(of: value, at: place, depth: depth + 1, compiler) == nil else { return nil }
    return SchemaFailure(place, "not", .text("this value is not allowed here"))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    !node.admits(value, depth: depth + 1, compiler)
  }
}

/// `if`, with `then` and `else`.
final class IfCheck: SchemaCheck {
  let condition: SchemaNode
  let then: SchemaNode?
  let otherwise: SchemaNode?

  init(_ condition: SchemaNode, then: SchemaNode?, else otherwise: SchemaNode?) {
    self.condition = condition
    self.then = then
    self.otherwise = otherwise
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    let holds = condition.failure(of: value, at: place, depth: depth + 1, compiler) == nil
    return (holds ? then : otherwise)?.failure(of: value, at: place, depth: depth + 1, compiler)
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    let holds = condition.admits(value, depth: depth + 1, compiler)
    return (holds ? then : otherwise)?.admits(value, depth: depth + 1, compiler) ?? true
  }
}

/// The closer of two failing options; of equals, the earlier.
private func closer(_ earlier: SchemaFailure?, _ later: SchemaFailure) -> SchemaFailure {
  guard let earlier, earlier.closeness >= later.closeness else { return later }
  return earlier
}

/// When no option fits: the variant that got deepest before failing is the one the host most
/// likely meant; one that failed at this very place says nothing more than the combinator.
private func reported(_ closest: SchemaFailure?, at place: SchemaPlace, _ rule: String) -> SchemaFailure {
  if let closest, !closest.place.spellsSamePath(as: place) { return closest }
  return SchemaFailure(place, rule, .text("matches none of the allowed shapes"))
}
