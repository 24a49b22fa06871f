import JSON

extension SchemaValidator {
  /// The keywords that apply other schemas to the same value.
  static let combinators: [Keyword] = [
    Keyword(name: "allOf") { value, _, scope in
      guard let schemas = value.arrayValue, !schemas.isEmpty else { return nil }
      return AllOfCheck(scope.nodes(for: schemas))
    },
    // The first shape that fits ends the search; an empty list allows anything.
    Keyword(name: "anyOf") { value, _, scope in
      guard let options = value.arrayValue, !options.isEmpty else { return nil }
      return AnyOfCheck(scope.nodes(for: options))
    },
    // An empty list (or not a list) allows nothing: no option matches.
    Keyword(name: "oneOf") { value, _, scope in OneOfCheck(scope.nodes(for: value.arrayValue ?? [])) },
    Keyword(name: "not") { value, _, scope in NotCheck(scope.node(for: value)) },
    // `then` applies when `if` holds, `else` when it does not; either alone does nothing.
    Keyword(name: "if") { value, rules, scope in
      IfCheck(
        scope.node(for: value), then: rules["then"].map { scope.node(for: $0, beside: "then") },
        else: rules["else"].map { scope.node(for: $0, beside: "else") })
    },
  ]
}

// Each combinator tries its schemas on the same value at the same place, one level deeper.

/// `allOf`.
final class AllOfCheck: SchemaCheck {
  let nodes: [SchemaNode]

  init(_ nodes: [SchemaNode]) { self.nodes = nodes }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    for node in nodes where !found.isFull {
      node.collect(value, at: place, depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    nodes.allSatisfy { $0.admits(value, depth: depth + 1, compiler) }
  }
}

/// `anyOf`.
final class AnyOfCheck: SchemaCheck {
  let options: [SchemaNode]

  init(_ options: [SchemaNode]) { self.options = options }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard !admits(value, depth: depth, compiler) else { return }
    found.add(closest(of: options, value, at: place, depth: depth, compiler, room: found.room), at: place, "anyOf")
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    options.contains { $0.admits(value, depth: depth + 1, compiler) }
  }
}

/// `oneOf`.
final class OneOfCheck: SchemaCheck {
  let options: [SchemaNode]

  init(_ options: [SchemaNode]) { self.options = options }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    let matching = options.count { $0.admits(value, depth: depth + 1, compiler) }
    if matching > 1 {
      found.add(SchemaFailure(place, "oneOf", .text("matches more than one of the allowed shapes")))
    } else if matching == 0 {
      found.add(closest(of: options, value, at: place, depth: depth, compiler, room: found.room), at: place, "oneOf")
    }
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
final class NotCheck: SingleFailureCheck {
  let node: SchemaNode

  init(_ node: SchemaNode) { self.node = node }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard node.admits(value, depth: depth + 1, compiler) else { return nil }
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

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    let holds = condition.admits(value, depth: depth + 1, compiler)
    (holds ? then : otherwise)?.collect(value, at: place, depth: depth + 1, compiler, into: &found)
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    let holds = condition.admits(value, depth: depth + 1, compiler)
    return (holds ? then : otherwise)?.admits(value, depth: depth + 1, compiler) ?? true
  }
}

/// The failures of the option that got furthest before failing, none of which fits `value`: its
/// first failure is the deepest, of equals the earlier option's.
private func closest(
  of options: [SchemaNode], _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler,
  room: Int
) -> SchemaFailures? {
  var closest: SchemaFailures?
  for option in options {
    var found = SchemaFailures(limit: room)
    option.collect(value, at: place, depth: depth + 1, compiler, into: &found)
    guard let first = found.first else { continue }
    if let best = closest?.first, best.closeness >= first.closeness { continue }
    closest = found
  }
  return closest
}

extension SchemaFailures {
  /// When no option fits: the mistakes of the variant the host most likely meant; one that failed
  /// at this very place says nothing more than the combinator.
  fileprivate mutating func add(_ closest: SchemaFailures?, at place: SchemaPlace, _ rule: String) {
    if let closest, let first = closest.first, !first.place.spellsSamePath(as: place) { return add(closest) }
    add(SchemaFailure(place, rule, .text("matches none of the allowed shapes")))
  }
}

extension SchemaScope {
  /// The schemas of a list keyword, each at its index.
  fileprivate func nodes(for schemas: [JSONValue]) -> [SchemaNode] {
    schemas.enumerated().map { node(for: $1, at: String($0)) }
  }
}
