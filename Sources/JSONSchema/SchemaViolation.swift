import JSON

/// Where a value breaks its schema and which rule it breaks, for a -32602 `data` object.
public struct SchemaViolation: Error, Sendable, Hashable, CustomStringConvertible {
  /// A path into the value, such as `payload.buttons[2].title`.
  public var path: String
  /// The keyword that failed (`type`, `required`, `enum`, ...).
  public var rule: String
  /// A sentence a person can act on.
  public var message: String
  /// The same place as a JSON pointer, from the pointer the check started at; for `required`, the
  /// missing member.
  public var pointer: JSONPointer
  /// Where the keyword that failed sits in the schema document, as a URI fragment
  /// (`#/components/schemas/MarketerData/properties/displayType/pattern`), for tools.
  public var schemaPath: String

  public init(
    path: String, rule: String, message: String, pointer: JSONPointer = JSONPointer(), schemaPath: String = "#"
  ) {
    self.path = path
    self.rule = rule
    self.message = message
    self.pointer = pointer
    self.schemaPath = schemaPath
  }

  public var description: String { "\(path): \(message)" }
}
