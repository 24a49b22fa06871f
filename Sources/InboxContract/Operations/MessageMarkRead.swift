import InboxApp
import JSON
import JSONRPC

/// `message.markRead {ids}` -> `{changed}`: how many became read. Unknown, dismissed and already
/// read ids change nothing (bulk calls are lenient); they are listed in `unchanged`.
enum MessageMarkRead: Operation {
  static let name = "message.markRead"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: MarkReadParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.markRead(ids: params.ids)
    context.report(result.effects)
    return ["changed": .int(Int64(result.changed.count)), "unchanged": .array(result.unchanged.map(JSONValue.string))]
  }
}
