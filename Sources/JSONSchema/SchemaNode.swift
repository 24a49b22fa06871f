import JSON

/// A schema compiled once (`SchemaCompiler`): what its keywords check, read out of its JSON, in the
/// order of the keyword table, so checking a value reads no keyword names and rebuilds no lists.
final class SchemaNode: Sendable {
  enum Body: Sendable {
    /// `true`, `{}`, or a value that is not a schema object: every value conforms.
    case anything
    /// `false`, at its place in the document.
    case nothing(schemaPath: String)
    /// A schema object: its `$ref` first, then its keywords in the table's order.
    case checks([Located])
  }

  /// A keyword's check and where the keyword sits in the document (`#/.../properties/title/type`).
  struct Located: Sendable {
    let check: any SchemaCheck
    let schemaPath: String
    /// A value of another type is not looked at further: the rest of its node's checks would only
    /// say the same thing again in other words.
    let checksType: Bool
  }

  let body: Body

  init(_ body: Body) { self.body = body }

  static let anything = SchemaNode(.anything)

  /// The first way `value`, at `place`, breaks this schema, or nil when it conforms.
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    var found = SchemaFailures(limit: 1)
    collect(value, at: place, depth: depth, compiler, into: &found)
    return found.first
  }

  /// Adds the ways `value`, at `place`, breaks this schema to `found`, until it is full. `depth`
  /// counts the schemas entered, `$ref`s included, up to `maxDepth`.
  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard depth < Self.maxDepth else {
      return found.add(SchemaFailure(place, "depth", .text("nested too deeply to check")))
    }
    switch body {
    case .anything: return
    case .nothing(let schemaPath):
      var failure = SchemaFailure(place, "false", .text("no value is allowed here"))
      failure.schemaPath = schemaPath
      found.add(failure)
    case .checks(let checks):
      for located in checks {
        let before = found.count
        located.check.collect(value, at: place, depth: depth, compiler, into: &found)
        found.place(from: before, at: located.schemaPath)
        if found.isFull || (located.checksType && found.count > before) { return }
      }
    }
  }

  /// Whether `value` conforms: the answer of `failure(...) == nil`, without a place or a message,
  /// so a conforming value (most are) costs a walk and nothing more.
  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard depth < Self.maxDepth else { return false }
    switch body {
    case .anything: return true
    case .nothing: return false
    case .checks(let checks):
      for located in checks where !located.check.admits(value, depth: depth, compiler) { return false }
      return true
    }
  }

  static let maxDepth = 64
}

/// One keyword of a schema object, compiled. Checks are objects (one class per keyword, beside the
/// keyword in the table), so running a node's checks copies none of what they hold.
protocol SchemaCheck: AnyObject, Sendable {
  /// Adds the ways `value` breaks this keyword to `found`, in order, stopping when it is full.
  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures)
  /// True exactly when `collect` finds nothing (see `SchemaNode.admits`).
  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool
}

/// A keyword that breaks in one way at most, at the value itself.
protocol SingleFailureCheck: SchemaCheck {
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure?
}

extension SingleFailureCheck {
  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    if let failure = failure(of: value, at: place, depth: depth, compiler) { found.add(failure) }
  }
}
