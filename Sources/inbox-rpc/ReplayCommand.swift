import JSON

/// `inbox-rpc replay FILE [server options]`: sends the host's frames of a trace to a fresh server,
/// one frame at a time, and reports every reply that differs from the recorded one (`ReplyDiff`).
enum ReplayCommand {
  static let help = """
    USAGE: inbox-rpc replay FILE [server options]

    Starts a fresh server (this binary; with `mcp` first for the MCP face, which is also chosen
    when the trace's host sent an MCP initialize), sends it the frames the host sent in FILE in
    order, each once the replies recorded for the one before have come back, and reports every
    reply that differs from the recorded one, the reply's id and times aside (a time: any string
    that is an RFC 3339 date-time; a feed cursor names its store, so it counts as an id). Server options are passed on; unless given, --store :memory:
    --test-clock at the trace's first time and
    --log-level error. Notifications are not compared. docs/tracing.md.

    EXIT CODES: 0 no difference; 1 differences; 2 bad command line; 3 FILE cannot be read or the
    server cannot be started.
    """

  /// Longest wait for one recorded reply.
  static let replyTimeout = 10.0

  static func run(_ arguments: [String]) -> Int32 {
    guard let file = arguments.first, !file.hasPrefix("-") || file == "-h" || file == "--help" else {
      return usage("name the trace FILE first")
    }
    if file == "-h" || file == "--help" {
      StandardStreams.writeStdout(help + "\n")
      return 0
    }
    let plan: ReplayPlan
    do {
      plan = ReplayPlan(try TraceLog.read(file))
    } catch {
      StandardStreams.writeStderr("inbox-rpc replay: \(error)\n")
      return 3
    }
    let child: ChildServer
    do {
      child = try ChildServer(arguments: serverArguments(Array(arguments.dropFirst()), plan: plan))
    } catch {
      StandardStreams.writeStderr("inbox-rpc replay: \(error)\n")
      return 3
    }
    var differences: [String] = []
    var compared = 0
    var diff = ReplyDiff()
    for step in plan.steps {
      guard child.send(diff.substituted(step.bytes)) else {
        differences.append("\(file):\(step.line): the server stopped reading before this frame")
        break
      }
      var replayed: [String: [JSONValue]] = [:]
      var missing = step.replies.count
      while missing > 0, let frame = child.next(timeout: replyTimeout) {
        guard let value = try? JSONValue.parse(bytes: frame, options: JSONReadOptions(maxDepth: 2000)) else { continue }
        for (_, message) in TraceLog.messages(of: value) where message["method"] == nil {
          let key = ReplayPlan.key(message)
          replayed[key, default: []].append(message)
          if step.replies.contains(where: { $0.key == key }) { missing -= 1 }
        }
      }
      for reply in step.replies {
        compared += 1
        let idText = "id \(reply.key)"
        guard var answers = replayed[reply.key], !answers.isEmpty else {
          differences.append("\(file):\(reply.line): \(idText): no reply in the replay")
          continue
        }
        let answer = answers.removeFirst()
        replayed[reply.key] = answers
        if let difference = diff.firstDifference(reply.message, answer) {
          differences.append("\(file):\(reply.line): \(idText): \(difference)")
        }
      }
    }
    _ = child.wait()
    let summary = "\(differences.count) difference(s) in \(compared) replies compared"
    // Member names and file names come from the trace: shown with their control characters escaped.
    StandardStreams.writeStdout(
      (differences + [summary]).map(\.escapingControlCharacters).joined(separator: "\n") + "\n")
    return differences.isEmpty ? 0 : 1
  }

  /// The child's command line: the face, then `--store :memory:` and the trace's first second as
  /// `--test-clock` unless the options name their own.
  static func serverArguments(_ given: [String], plan: ReplayPlan) -> [String] {
    var options = given
    var face: [String] = []
    if options.first == "mcp" {
      options.removeFirst()
      face = ["mcp"]
    } else if plan.isMCP {
      face = ["mcp"]
    }
    let names = Set(options.map { String($0.split(separator: "=", maxSplits: 1).first ?? "") })
    // The server's warnings about the cards were seen when the trace was made.
    if !names.contains("--log-level") { options = ["--log-level", "error"] + options }
    if !names.contains("--store") { options = ["--store", ":memory:"] + options }
    if !names.contains("--test-clock"), let first = plan.firstTime {
      options = ["--test-clock", String(first / 1000)] + options
    }
    return face + options
  }

  private static func usage(_ message: String) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc replay: \(message)\nRun 'inbox-rpc replay --help' for usage.\n")
    return 2
  }
}
