import InboxApp
import JSON
import JSONRPC

/// `feed.dismissRead {customData?}` and `feed.dismissAll {customData?}` -> `{dismissed}`: every
/// read (pinned or not), or every, visible message the filter selects leaves the feed for good,
/// in one transaction, each dismissal queued for the backend; one `feed.changed` lists them all.
enum FeedDismissRead: Operation {
  static let name = "feed.dismissRead"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    try FeedDismissAll.dismiss(readOnly: true, params, context)
  }
}

enum FeedDismissAll: Operation {
  static let name = "feed.dismissAll"
  static let execution: Method.Execution = .write

  static func run(_ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    try dismiss(readOnly: false, params, context)
  }

  static func dismiss(readOnly: Bool, _ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.dismissAll(readOnly: readOnly, customData: params.customData)
    context.report(result.effects)
    return ["dismissed": .int(Int64(result.dismissed.count))]
  }
}
