import InboxApp
import JSON
import LintReport

/// `check-trace`'s findings in `LintReport`'s terms, so every `--format` of `lint` serves it (written
/// as they come, `ReportStream`): a subject per message the host sent (its reply's findings with
/// it), and one per finding about no message of the host's, positions in the trace file as written.
public enum TraceReport {
  public static let rules = [
    Rule(id: "json", summary: "A frame is not JSON.", severity: .error),
    Rule(id: "envelope", summary: "A message is not a JSON-RPC 2.0 request, notification or reply.", severity: .error),
    Rule(id: "unknown-method", summary: "The host sent a method the contract does not have.", severity: .error),
    Rule(
      id: "unknown-notification", summary: "The server sent a notification the contract does not have.",
      severity: .error),
    Rule(id: "params", summary: "Params break the method's params in Schemas/openrpc.json.", severity: .error),
    Rule(id: "result", summary: "A result breaks the method's result schema.", severity: .error),
    Rule(id: "error", summary: "An error lacks an integer code or a string message.", severity: .error),
    Rule(id: "unmatched-reply", summary: "A reply answers no request the host sent.", severity: .error),
    Rule(id: "no-reply", summary: "A request was never answered in the trace.", severity: .warning),
    Rule(id: "trace-record", summary: "A line of the trace is not a record of --trace.", severity: .error),
    Rule(id: "trace-gap", summary: "The trace dropped frames here (it fell behind).", severity: .warning),
    Rule(id: "unknown-tool", summary: "An MCP host called a tool the MCP face does not have.", severity: .error),
  ]

  static func finding(_ found: TraceFinding) -> Finding {
    Finding(
      file: found.file, position: found.position, pointer: found.pointer, ruleId: found.rule,
      severity: found.severity == .error ? .error : .warning, message: found.reportMessage)
  }

  public static let tool = Report.Tool(name: "inbox-rpc check-trace", version: ServerInfo.version)
}
