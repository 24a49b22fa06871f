import InboxApp
import InboxStore
import JSON
import JSONRPC

/// `feed.counts` -> `{total, unread, unactioned, pinned}` over visible messages.
enum FeedCountsMethod: RPCMethod {
  static let name = "feed.counts"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.counts()
    server.report(result.effects, request)
    return result.counts.json
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
