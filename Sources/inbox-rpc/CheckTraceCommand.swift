import InboxTrace
import LintReport

/// `inbox-rpc check-trace [--format F] [--fail-on L] FILE...`: checks traces written by `--trace`
/// against Schemas/openrpc.json, reported in any of `lint`'s formats.
enum CheckTraceCommand {
  static let help = """
    USAGE: inbox-rpc check-trace [--format \(ReportFormat.names)] [--fail-on error|warning|never] FILE...

    Reads traces written by --trace and checks them against the contract (Schemas/openrpc.json,
    as embedded in this server): every request and notification the host sent (method known,
    params valid), every reply (matched to its request by id) against its method's result
    schema, and every notification of the server against its params. Each finding names the
    trace's line and column, the message's id and the JSON path inside the frame (its pointer
    from the record's root in the json and sarif formats). See docs/tracing.md.

      --format F        text (default), json, sarif (SARIF 2.1.0), junit (a test case per message
                        the host sent) or github (workflow commands), as for lint.
      --fail-on L       The least severity that fails the run (default: warning). Errors: the
                        contract broken; warnings: requests never answered, frames dropped.

    Each FILE must be a regular file (a FIFO, a device or a directory is refused, exit 3); it is
    read one line at a time, and each message's findings are written once its reply has come (in
    that order), so memory holds a line and the requests still unanswered, whatever the length. File names are shown with control characters and bytes that are not
    UTF-8 escaped (\\n, \\xE9).

    EXIT CODES: 0 no finding at or above --fail-on; 1 a finding at or above it; 2 bad command
    line; 3 a file cannot be read or is not a regular file.
    """

  static func run(_ arguments: [String]) -> Int32 {
    var format = ReportFormat.text
    var failOn = FailOn.warning
    var files: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        StandardStreams.writeStdout(help + "\n")
        return 0
      case "--format":
        guard let value = remaining.popFirst().flatMap(ReportFormat.init(flag:)) else {
          return usage("--format needs one of \(ReportFormat.names)")
        }
        format = value
      case "--fail-on":
        guard let value = remaining.popFirst().flatMap(FailOn.init(flag:)) else {
          return usage("--fail-on needs error, warning or never")
        }
        failOn = value
      case _ where argument.hasPrefix("-"): return usage("unknown option \(argument.escapingControlCharacters)")
      default: files.append(argument)
      }
    }
    guard !files.isEmpty else { return usage("name at least one FILE") }
    let contract = TraceContract()
    // Written as each subject is complete: a trace of any length is checked in bounded memory.
    let report = ReportStream(
      format: format, failOn: failOn, tool: TraceReport.tool, rules: TraceReport.rules,
      write: StandardStreams.writeStdout)
    var unreadable = false
    for file in files {
      do {
        try contract.check(file, emit: report.add)
      } catch {
        StandardStreams.writeStderr("inbox-rpc check-trace: \(error.description.escapingControlCharacters)\n")
        unreadable = true
      }
    }
    report.finish()
    if unreadable { return 3 }
    return report.fails ? 1 : 0
  }

  private static func usage(_ message: String) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc check-trace: \(message)\nRun 'inbox-rpc check-trace --help' for usage.\n")
    return 2
  }
}
