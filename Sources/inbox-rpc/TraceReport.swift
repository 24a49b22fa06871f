import InboxApp
import JSON
import LintReport

/// `check-trace`'s findings as a `LintReport.Report`, so every `--format` of `lint` serves it: a
/// subject per message the host sent (its reply's findings with it), one more for findings about
/// no message of the host's, positions in the trace file as written.
enum TraceReport {
  static let rules = [
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
  ]

  /// The subjects of one checked trace, each subject's findings in the order of their lines.
  static func subjects(_ run: TraceCheck) -> [Report.Subject] {
    var byExchange = [[TraceFinding]](repeating: [], count: run.exchanges.count)
    var loose: [Finding] = []
    for found in run.findings {
      if let exchange = found.exchange { byExchange[exchange].append(found) } else { loose.append(finding(found)) }
    }
    var subjects = zip(run.exchanges, byExchange).map { exchange, found in
      // A few each: a request's, its reply's, and a warning added at the end about the request.
      let ordered =
        found.count < 2
        ? found
        : found.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
      return Report.Subject(file: run.file, name: exchange.name, findings: ordered.map(finding))
    }
    if !loose.isEmpty { subjects.append(Report.Subject(file: run.file, name: "the trace", findings: loose)) }
    return subjects
  }

  private static func finding(_ found: TraceFinding) -> Finding {
    Finding(
      file: found.file, position: found.position, pointer: found.pointer, ruleId: found.rule,
      severity: found.severity == .error ? .error : .warning, message: found.reportMessage)
  }

  static func report(_ subjects: [Report.Subject]) -> Report {
    let cited = Set(subjects.flatMap { $0.findings.map(\.ruleId) })
    return Report(
      tool: Report.Tool(name: "inbox-rpc check-trace", version: ServerInfo.version),
      rules: rules.filter { cited.contains($0.id) }, subjects: subjects)
  }
}
