import JSON

/// A schema compiled once (`SchemaCompiler`): what its keywords check, read out of its JSON, in the
/// order of the keyword table, so checking a value reads no keyword names and rebuilds no lists.
final class SchemaNode: Sendable {
  enum Body: Sendable {
    /// `true`, `{}`, or a value that is not a schema object: every value conforms.
    case anything
    /// `false`.
    case nothing
    /// A schema object: its `$ref` first, then its keywords in the table's order.
    case checks([any SchemaCheck])
  }

  let body: Body

  init(_ body: Body) { self.body = body }

  static let anything = SchemaNode(.anything)
  static let nothing = SchemaNode(.nothing)

  /// The first way `value`, at `place`, breaks this schema, or nil when it conforms. `depth` counts
  /// the schemas entered, `$ref`s included, up to `maxDepth`.
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard depth < Self.maxDepth else { return SchemaFailure(place, "depth", .text("nested too deeply to check")) }
    switch body {
    case .anything: return nil
    case .nothing: return SchemaFailure(place, "false", .text("no value is allowed here"))
    case .checks(let checks):
      for check in checks {
        if let found = check.failure(of: value, at: place, depth: depth, compiler) { return found }
      }
      return nil
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
      for check in checks where !check.admits(value, depth: depth, compiler) { return false }
      return true
    }
  }

  static let maxDepth = 64
}

/// One keyword of a schema object, compiled. Checks are objects (one class per keyword, beside the
/// keyword in the table), so running a node's checks copies none of what they hold.
protocol SchemaCheck: AnyObject, Sendable {
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure?
  /// True exactly when `failure` is nil (see `SchemaNode.admits`).
  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool
}
