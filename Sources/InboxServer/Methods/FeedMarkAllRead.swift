import JSON
import JSONRPC

/// `feed.markAllRead` -> `{changed}`; each change is queued for the backend.
enum FeedMarkAllRead: RPCMethod {
  static let name = "feed.markAllRead"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let changed = try server.store.markAllRead(now: server.clock.now)
    if !changed.isEmpty { server.feedChanged(request, reason: "read", updated: changed) }
    return ["changed": .int(Int64(changed.count))]
  }
}
