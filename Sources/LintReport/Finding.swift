import JSON

/// How much a finding matters; `--fail-on` compares against it.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
  case note, warning, error

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One thing a checker says about one place in one file.
public struct Finding: Sendable, Hashable {
  /// The file as named on the command line (`-` for standard input).
  public var file: String
  /// Where the offending value starts (see `SourcePosition` for how columns count).
  public var position: SourcePosition
  /// Where it ends: the position just past its last character, when known.
  public var end: SourcePosition?
  /// The JSON pointer of the offending value, when the file is JSON.
  public var pointer: JSONPointer?
  /// A stable id of the rule broken: one of the report's `rules`.
  public var ruleId: String
  public var severity: Severity
  /// A sentence a person can act on.
  public var message: String
  /// For a break of a schema, where the keyword broken sits in the schema document, for tools
  /// (`#/components/schemas/MarketerData/properties/displayType/pattern`).
  public var schemaPath: String?

  public init(
    file: String, position: SourcePosition, end: SourcePosition? = nil, pointer: JSONPointer? = nil, ruleId: String,
    severity: Severity, message: String, schemaPath: String? = nil
  ) {
    self.file = file
    self.position = position
    self.end = end
    self.pointer = pointer
    self.ruleId = ruleId
    self.severity = severity
    self.message = message
    self.schemaPath = schemaPath
  }

  /// `{file, line, column, endLine?, endColumn?, pointer?, ruleId, severity, message, schemaPath?}`.
  public var json: JSONValue {
    var object: JSONObject = [
      "file": .string(file.escapingControlCharacters), "line": .int(Int64(position.line)),
      "column": .int(Int64(position.column)),
    ]
    if let end {
      object["endLine"] = .int(Int64(end.line))
      object["endColumn"] = .int(Int64(end.column))
    }
    if let pointer { object["pointer"] = .string(pointer.description) }
    object["ruleId"] = .string(ruleId)
    object["severity"] = .string(severity.rawValue)
    object["message"] = .string(message)
    if let schemaPath { object["schemaPath"] = .string(schemaPath) }
    return .object(object)
  }
}

extension Sequence<Finding> {
  /// The most severe of the findings; nil when there are none.
  public var worst: Severity? { lazy.map(\.severity).max() }
}
