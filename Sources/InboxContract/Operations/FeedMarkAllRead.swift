import InboxApp
import JSON
import JSONRPC

/// `feed.markAllRead {customData?}` -> `{changed}`; each change is queued for the backend.
enum FeedMarkAllRead: Operation {
  static let name = "feed.markAllRead"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.markAllRead(customData: params.customData)
    context.report(result.effects)
    return ["changed": .int(Int64(result.changed.count))]
  }
}
