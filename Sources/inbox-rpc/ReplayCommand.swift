import Dispatch
import InboxTrace
import JSON
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// `inbox-rpc replay FILE [--backend-listener URL] [server options]`: sends the host's frames of a
/// trace to a fresh server in a sandbox, and reports every reply that differs from the recorded one
/// (`ReplyDiff`).
enum ReplayCommand {
  static let help = """
    USAGE: inbox-rpc replay FILE [--backend-listener URL] [server options]

    Starts a fresh server (this binary; with `mcp` first for the MCP face, which is also chosen
    when the trace's host sent an MCP initialize), sends it the frames the host sent in FILE in
    order, each once the replies recorded before it have come back, and reports every reply that
    differs from the recorded one, the reply's id and times aside (a time: any string that is an
    RFC 3339 date-time; a feed cursor names its store, so it counts as an id). Notifications are
    not compared. docs/tracing.md.

    SANDBOX: a trace may come from anyone, so the server runs with no credentials and reaches no
    network. It gets an empty environment (no INBOX_RPC_* variable, no proxy), a throwaway store
    (:memory:, or a private copy of the one --store names, removed at the end), no API token,
    and no backend setting: --token-file, --application, --backend-url, --user-id, --hwid,
    --device-type and --backend-ca-file are refused. Every backend call a replayed feed.sync
    makes fails BackendUnavailable without leaving the process, unless --backend-listener names
    the one listener it may reach: then every call goes there, without a token, whatever base
    URL a replayed config.set or initialize names.

      --backend-listener URL  An http URL on a loopback address (http://127.0.0.1:PORT/): the
                              only place the server's backend calls go (application code REPLAY
                              unless the trace sets one).

    Other server options are passed on; unless given, --store :memory:, --test-clock at the
    trace's first time and --log-level error. FILE must be a regular file (a FIFO or a device
    is refused); it is read one line at a time.

    EXIT CODES: 0 no difference; 1 differences; 2 bad command line; 3 FILE cannot be read or the
    server cannot be started.
    """

  /// Returns the exit code when the replay cannot start; otherwise runs it on Dispatch and exits
  /// the process once the server has exited.
  static func run(_ arguments: [String]) -> Int32 {
    guard let file = arguments.first, !file.hasPrefix("-") || file == "-h" || file == "--help" else {
      return usage("name the trace FILE first")
    }
    if file == "-h" || file == "--help" {
      StandardStreams.writeStdout(help + "\n")
      return 0
    }
    var sandbox: ReplaySandbox
    switch ReplaySandbox.make(Array(arguments.dropFirst())) {
    case .failure(let problem): return usage(problem.description)
    case .success(let made): sandbox = made
    }
    let plan: ReplayPlan
    do {
      plan = try ReplayPlan(file)
    } catch {
      sandbox.remove()
      return failed(error)
    }
    let child: ChildServer
    do {
      try sandbox.prepareStore()
      child = try ChildServer(arguments: sandbox.serverArguments(plan: plan), environment: [])
    } catch {
      sandbox.remove()
      return failed(error)
    }
    let prepared = sandbox
    ReplaySession(file: file, child: child).start { outcome in
      if let failure = outcome.failure { _ = failed(failure) }
      child.whenExited(on: .main) { _ in
        if outcome.failure == nil {
          let summary = "\(outcome.differences.count) difference(s) in \(outcome.compared) replies compared"
          // Member names and file names come from the trace: shown with their control characters escaped.
          StandardStreams.writeStdout(
            (outcome.differences + [summary]).map(\.escapingControlCharacters).joined(separator: "\n") + "\n")
        }
        prepared.remove()
        exit(outcome.failure != nil ? 3 : outcome.differences.isEmpty ? 0 : 1)
      }
    }
    dispatchMain()
  }

  /// Reports what stopped the replay; exit code 3.
  private static func failed(_ error: SystemError) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc replay: \(String(describing: error).escapingControlCharacters)\n")
    return 3
  }

  private static func usage(_ message: String) -> Int32 {
    StandardStreams.writeStderr(
      "inbox-rpc replay: \(message.escapingControlCharacters)\nRun 'inbox-rpc replay --help' for usage.\n")
    return 2
  }
}
