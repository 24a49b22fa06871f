/// Why host attributes were refused, with the path of the offending member, so invalid params can name it.
///
/// `path` is `"attributes"` for the object itself and `"attributes.<key>"` for a member, e.g.
/// `AttributesError(path: "attributes.forceCellKind", reason: "unknown kind \"grid\"; expected one of ...")`.
public struct AttributesError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where the problem is: `attributes` or `attributes.<key>`.
  public var path: String
  /// What is wrong there.
  public var reason: String

  /// Builds an error.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `attributes.forceCellKind: unknown kind ...`, for logs.
  public var description: String { "\(path): \(reason)" }
}
