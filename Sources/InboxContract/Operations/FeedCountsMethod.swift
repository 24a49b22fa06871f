import InboxApp
import InboxStore
import JSON
import JSONRPC

/// `feed.counts {customData?}` -> `{total, unread, unactioned, pinned}` over visible messages (those
/// the filter selects).
public enum FeedCountsMethod: Operation {
  static let name = "feed.counts"

  public static func run(_ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.counts(customData: params.customData)
    context.report(result.effects)
    return result.counts.json
  }
}

extension FeedCounts {
  /// `{total, unread, unactioned, pinned, unseen}`.
  public var json: JSONValue {
    [
      "total": .int(Int64(total)), "unread": .int(Int64(unread)), "unactioned": .int(Int64(unactioned)),
      "pinned": .int(Int64(pinned)), "unseen": .int(Int64(unseen)),
    ]
  }
}
