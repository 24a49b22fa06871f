import InboxApp
import InboxContract
import JSON
import JSONRPC
import Synchronization

/// What the use cases report while they serve one MCP request, said the MCP way: a feed change
/// becomes resource notifications, an engine warning `notifications/message` (when the host's
/// level lets it through), and a sync step `notifications/progress` for a request that carried a
/// `progressToken`. Each is said in the revision of the request it reports on (`Downlevel`).
struct Relay: Sendable {
  let era: Era
  let changes: ChangeFeed
  let logging: LogSettings

  /// The events of work for `params`' request (nil: outside any request, the background sync).
  func reporter(params: Params?, send: @escaping @Sendable (String, JSONValue) -> Void) -> Reporter {
    // Asked at each send: the background sync's reporter is made before the host's `initialize`.
    let send: @Sendable (String, JSONValue) -> Void = { [era] method, value in
      send(method, Downlevel.notification(method, value, for: era.revision(of: params ?? Params(nil))))
    }
    let steps = Mutex<Int64>(0)
    // Resource notifications carry no counts: none are read after a commit for them.
    return Reporter(
      changed: { [changes] change in changes.publish(change, send: send) },
      warned: { [logging] warning in
        guard logging.allows(.warning, for: params) else { return }
        // One line for people, whatever the payload's text; `warning` carries it as is.
        let data: JSONValue = [
          "message": .string(warning.description.escapingControlCharacters), "warning": warning.json,
        ]
        send("notifications/message", ["level": "warning", "logger": "inbox-rpc", "data": data])
      },
      progress: { step in
        guard let token = params?.raw?["_meta"]?["progressToken"] else { return }
        let count = steps.withLock { count in
          count += 1
          return count
        }
        var words = step.stage.rawValue
        if let done = step.done, let total = step.total { words += " \(done)/\(total)" }
        send("notifications/progress", ["progressToken": token, "progress": .int(count), "message": .string(words)])
      },
      downloading: { step in
        // Bytes, which only grow: the progress MCP asks for, with the total when the server announced one.
        guard let token = params?.raw?["_meta"]?["progressToken"] else { return }
        var progress: JSONObject = [
          "progressToken": token, "progress": .int(Int64(step.received)),
          "message": .string("downloading the wallet pass: \(step.received) bytes"),
        ]
        if let total = step.total { progress["total"] = .int(Int64(total)) }
        send("notifications/progress", .object(progress))
      }, sendsCounts: false)
  }
}

/// The inbox's use cases, run in process: arguments already checked against the tool's schema
/// go straight to the operation, which decodes them once and calls the inbox.
struct Gateway: Sendable {
  let inbox: Inbox
  let relay: Relay
  let warnings: WarningLog

  var changes: ChangeFeed { relay.changes }
  var logging: LogSettings { relay.logging }

  func context(for request: RequestContext) -> OperationContext {
    OperationContext(
      inbox: inbox, reporter: relay.reporter(params: request.params, send: request.notify), warnings: warnings,
      cancellation: request.cancellation, logger: request.logger, writes: request.writes)
  }
}
