import InboxApp
import JSON
import JSONRPC

/// `feed.markAllRead` -> `{changed}`; each change is queued for the backend.
enum FeedMarkAllRead: RPCMethod {
  static let name = "feed.markAllRead"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.markAllRead()
    server.report(result.effects, request)
    return ["changed": .int(Int64(result.changed.count))]
  }
}
