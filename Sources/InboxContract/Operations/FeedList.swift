import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `feed.list {cursor?, limit?, unreadOnly?, kinds?}` -> `{items, nextCursor, counts, gestures}` in feed
/// order (`Inbox.list`; bounds such as `limit` ≤ 200 are the contract's, in Schemas/); `gestures`, the
/// screen's switches in force.
public enum FeedList: Operation {
  static let name = "feed.list"

  public static func run(_ params: FeedListParams, _ context: OperationContext) throws -> JSONValue {
    let page = try context.inbox.list(page: params.page, filter: params.filter)
    context.report(page.effects)
    return [
      "items": .array(page.cardsJSON),
      "nextCursor": page.next.map { .string($0.token) } ?? .null,
      "counts": page.counts.json,
      "gestures": context.inbox.attributes.gesturesJSON,
    ]
  }
}
