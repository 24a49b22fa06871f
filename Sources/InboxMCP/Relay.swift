import InboxServer
import JSON
import JSONRPC
import Synchronization

/// What the engine says while it serves one MCP request, said the MCP way: `feed.changed` becomes
/// resource notifications, a `log` warning becomes `notifications/message` (when the host's level
/// lets it through), and `sync.progress` becomes `notifications/progress` for a request that
/// carried a `progressToken`.
final class Relay: Sendable {
  private let params: Params?
  private let send: @Sendable (String, JSONValue) -> Void
  private let changes: ChangeFeed
  private let logging: LogSettings
  private let steps = Mutex<Int64>(0)

  /// `params` are the MCP request's (nil for work outside any request: the background sync).
  init(
    params: Params?, send: @escaping @Sendable (String, JSONValue) -> Void, changes: ChangeFeed,
    logging: LogSettings
  ) {
    self.params = params
    self.send = send
    self.changes = changes
    self.logging = logging
  }

  func notify(_ method: String, _ payload: JSONValue) {
    switch method {
    case "feed.changed":
      changes.publish(payload, send: send)
    case "log":
      guard logging.allows(.warning, for: params) else { return }
      let data: JSONValue = ["message": payload["message"] ?? .null, "warning": payload["data"] ?? .null]
      send("notifications/message", ["level": "warning", "logger": "inbox-rpc", "data": data])
    case "sync.progress":
      guard let token = params?.raw?["_meta"]?["progressToken"] else { return }
      let step = steps.withLock { count in
        count += 1
        return count
      }
      var words = payload["stage"]?.stringValue ?? "working"
      if let done = payload["done"]?.intValue, let total = payload["total"]?.intValue { words += " \(done)/\(total)" }
      send("notifications/progress", ["progressToken": token, "progress": .int(step), "message": .string(words)])
    default:
      break
    }
  }
}

/// The inbox's use cases, reached in process through the JSON-RPC face's own method
/// implementations: both faces run one implementation of every rule.
struct Gateway: Sendable {
  let session: InboxServer.Session
  let changes: ChangeFeed
  let logging: LogSettings

  /// Runs the JSON-RPC method `method` with `arguments`, on behalf of the MCP `request`.
  func call(_ method: String, _ arguments: JSONValue, for request: RequestContext) throws -> JSONValue {
    let relay = relay(for: request)
    return try session.call(
      RequestContext(
        id: request.id, method: method, params: Params(arguments), cancellation: request.cancellation,
        notify: { relay.notify($0, $1) }, logger: request.logger))
  }

  func relay(for request: RequestContext) -> Relay {
    Relay(params: request.params, send: request.notify, changes: changes, logging: logging)
  }
}
