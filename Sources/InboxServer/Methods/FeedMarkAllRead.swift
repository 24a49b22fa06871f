import JSON
import JSONRPC

/// `feed.markAllRead` -> `{changed}`; each change is queued for the backend.
enum FeedMarkAllRead: RPCMethod {
  static let name = "feed.markAllRead"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let changed = try server.store.markAllRead(now: server.clock.now)
    if !changed.isEmpty { server.feedChanged(request, reason: "read", updated: changed) }
    return ["changed": .int(Int64(changed.count))]
  }
}
