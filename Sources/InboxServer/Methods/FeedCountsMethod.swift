import InboxStore
import JSON
import JSONRPC

/// `feed.counts` -> `{total, unread, unactioned, pinned}` over visible messages.
enum FeedCountsMethod: RPCMethod {
  static let name = "feed.counts"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    try server.purgeExpired(request)
    return try server.store.counts(now: server.clock.now).json
  }
}

extension FeedCounts {
  var json: JSONValue {
    [
      "total": .int(Int64(total)), "unread": .int(Int64(unread)), "unactioned": .int(Int64(unactioned)),
      "pinned": .int(Int64(pinned)),
    ]
  }
}
