import InboxApp
import InboxCore
import InboxStore
import JSON
import JSONRPC

/// `feed.list {cursor?, limit?, unreadOnly?, kinds?}` -> `{items, nextCursor, counts}` in feed order
/// (`Inbox.list`; bounds such as `limit` ≤ 200 are the contract's, in Schemas/). Cards fill at most
/// `ServerOptions.maxPageBytes`: a page ends early rather than outgrow a reply.
enum FeedList: RPCMethod {
  static let name = "feed.list"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let page = try server.inbox.list(
      page: PageRequest(
        cursor: params.string("cursor"), limit: params.index("limit") ?? PageRequest().limit,
        maxBytes: server.options.maxPageBytes),
      filter: FeedFilter(
        unreadOnly: params.bool("unreadOnly") ?? false,
        kinds: params.strings("kinds").map { Set($0.compactMap(CardKind.init(rawValue:))) }))
    server.report(page.effects, request)
    return [
      "items": .array(page.cardsJSON),
      "nextCursor": page.next.map { .string($0.token) } ?? .null,
      "counts": page.counts.json,
    ]
  }
}
