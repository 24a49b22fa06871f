/// Where a value breaks its schema and which rule it breaks, for a -32602 `data` object.
public struct SchemaViolation: Error, Sendable, Hashable, CustomStringConvertible {
  /// A path into the value, such as `payload.buttons[2].title`.
  public var path: String
  /// The keyword that failed (`type`, `required`, `enum`, ...).
  public var rule: String
  /// A sentence a person can act on.
  public var message: String

  public init(path: String, rule: String, message: String) {
    self.path = path
    self.rule = rule
    self.message = message
  }

  public var description: String { "\(path): \(message)" }
}
