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

  static func subjects(_ log: TraceLog, file: String, contract: TraceContract) -> [Report.Subject] {
    let (findings, exchanges) = contract.check(log, file: file)
    let text = SourceText(log.bytes)
    var byExchange = [[Finding]](repeating: [], count: exchanges.count)
    var loose: [Finding] = []
    for found in findings {
      let start = found.line - 1 < log.lineStarts.count ? log.lineStarts[found.line - 1] : 0
      let finding = Finding(
        file: file, position: text.position(of: found.pointer, inValueAt: start), pointer: found.pointer,
        ruleId: found.rule, severity: found.severity == .error ? .error : .warning,
        message: found.reportMessage)
      if let exchange = found.exchange { byExchange[exchange].append(finding) } else { loose.append(finding) }
    }
    var subjects = zip(exchanges, byExchange).map { Report.Subject(file: file, name: $0.0.name, findings: $0.1) }
    if !loose.isEmpty { subjects.append(Report.Subject(file: file, name: "the trace", findings: loose)) }
    return subjects
  }

  static func report(_ subjects: [Report.Subject]) -> Report {
    let cited = Set(subjects.flatMap { $0.findings.map(\.ruleId) })
    return Report(
      tool: Report.Tool(name: "inbox-rpc check-trace", version: ServerInfo.version),
      rules: rules.filter { cited.contains($0.id) }, subjects: subjects)
  }
}
