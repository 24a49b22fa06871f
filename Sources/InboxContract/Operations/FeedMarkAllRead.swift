import InboxApp
import JSON
import JSONRPC

/// `feed.markAllRead` -> `{changed}`; each change is queued for the backend.
enum FeedMarkAllRead: Operation {
  static let name = "feed.markAllRead"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func run(_ params: NoParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.markAllRead()
    context.report(result.effects)
    return ["changed": .int(Int64(result.changed.count))]
  }
}
