import JSON

/// `inbox-rpc check-trace [--format text|json] FILE...`: checks traces written by `--trace`
/// against Schemas/openrpc.json.
enum CheckTraceCommand {
  static let help = """
    USAGE: inbox-rpc check-trace [--format text|json] FILE...

    Reads traces written by --trace and checks them against the contract (Schemas/openrpc.json,
    as embedded in this server): every request and notification the host sent (method known,
    params valid), every reply (matched to its request by id) against its method's result
    schema, and every notification of the server against its params. Each finding names the
    trace's line, the message's id and the JSON path inside the frame. See docs/tracing.md.

      --format text|json   How findings are written (default: text).

    EXIT CODES: 0 clean; 1 findings; 2 bad command line; 3 a file cannot be read.
    """

  static func run(_ arguments: [String]) -> Int32 {
    var format = "text"
    var files: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        StandardStreams.writeStdout(help + "\n")
        return 0
      case "--format":
        guard let value = remaining.popFirst(), ["text", "json"].contains(value) else {
          return usage("--format must be text or json")
        }
        format = value
      case _ where argument.hasPrefix("-"): return usage("unknown option \(argument)")
      default: files.append(argument)
      }
    }
    guard !files.isEmpty else { return usage("name at least one FILE") }
    let contract = TraceContract()
    var findings: [TraceFinding] = []
    var code: Int32 = 0
    for file in files {
      do {
        findings += contract.check(try TraceLog.read(file), file: file)
      } catch {
        StandardStreams.writeStderr("inbox-rpc check-trace: \(error)\n")
        code = 3
      }
    }
    if format == "json" {
      StandardStreams.writeStdout(JSONValue.object(["findings": .array(findings.map(\.json))]).jsonString + "\n")
    } else {
      let lines = findings.map(\.text) + ["\(findings.count) finding(s) in \(files.count) trace(s)"]
      StandardStreams.writeStdout(lines.joined(separator: "\n") + "\n")
    }
    return code != 0 ? code : (findings.isEmpty ? 0 : 1)
  }

  private static func usage(_ message: String) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc check-trace: \(message)\nRun 'inbox-rpc check-trace --help' for usage.\n")
    return 2
  }
}
