import InboxApp
import InboxContract
import JSON
import JSONRPC

/// What the JSON-RPC methods share: the inbox they adapt, the warnings said, and how the use
/// cases' events are said on this face.
final class ServerState: Sendable {
  let inbox: Inbox
  let warnings: WarningLog

  init(inbox: Inbox, warnings: WarningLog) {
    self.inbox = inbox
    self.warnings = warnings
  }

  /// The context an operation runs in for `request`: its events become this request's notifications.
  func context(for request: RequestContext) -> OperationContext {
    OperationContext(
      inbox: inbox, reporter: Self.reporter(request.notify), warnings: warnings, cancellation: request.cancellation,
      logger: request.logger, writes: request.writes)
  }

  /// The JSON-RPC notifications of the use cases' events: `feed.changed {reason, added?, updated?,
  /// removed?}` after a change has committed, `log` for an engine warning, `sync.progress`.
  static func reporter(_ notify: @escaping @Sendable (String, JSONValue) -> Void) -> Reporter {
    Reporter(
      changed: { change in notify("feed.changed", change.json) },
      warned: { warning in
        // One line for people, whatever the payload's text; `data` carries it as is.
        notify(
          "log",
          ["level": "warn", "message": .string(warning.description.escapingControlCharacters), "data": warning.json])
      },
      progress: { step in notify("sync.progress", step.json) },
      downloading: { step in
        var params: JSONObject = ["id": .string(step.id), "received": .int(Int64(step.received))]
        if let total = step.total { params["total"] = .int(Int64(total)) }
        notify("wallet.progress", .object(params))
      },
      walletReported: { record in notify("wallet.reported", .object(record.json)) })
  }
}
