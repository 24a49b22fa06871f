import InboxApp
import JSON
import JSONRPC

/// `message.dismiss {id}` -> `{dismissed}` (false when it already was); persisted before the reply
/// (SPEC.md §6). A dismissed message never comes back.
enum MessageDismiss: RPCMethod {
  static let name = "message.dismiss"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let outcome = try server.inbox.dismiss(id: try params.required("id", params.string))
    server.report(outcome.effects, request)
    return ["dismissed": .bool(outcome.dismissed)]
  }
}
