import InboxApp
import JSON
import JSONRPC

/// `message.markRead {ids}` -> `{changed}`: how many became read. Unknown, dismissed and already
/// read ids change nothing (bulk calls are lenient); they are listed in `unchanged`.
enum MessageMarkRead: RPCMethod {
  static let name = "message.markRead"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.markRead(ids: try params.required("ids", params.strings))
    server.report(result.effects, request)
    return ["changed": .int(Int64(result.changed.count)), "unchanged": .array(result.unchanged.map(JSONValue.string))]
  }
}
