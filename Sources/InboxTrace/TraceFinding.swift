import JSON
import LintReport

/// One thing `check-trace` says about one message of a trace: where (file, line, the message's id,
/// a JSON path inside the frame), which rule, how much it matters, and why.
struct TraceFinding {
  enum Severity: String {
    case warning, error
  }

  var file: String
  /// The trace's line, and the column where the offending value starts in it.
  var position: SourcePosition
  var line: Int { position.line }
  /// The JSON-RPC id of the message (or of the request a reply answers); nil for none.
  var id: JSONValue?
  /// Where in the frame: `params.limit`, `[1].result.items[0].kind`, or `frame` for the whole.
  var path: String
  /// The same place from the root of the trace's record: `/frame/params/limit`.
  var pointer: JSONPointer
  var rule: String
  var severity: Severity
  var message: String

  /// `id 3: params.limit: expected integer, got string (type)`: what the report's message says.
  var reportMessage: String {
    (id.map { "id \($0.jsonString): " } ?? "") + "\(path): " + message
  }
}
