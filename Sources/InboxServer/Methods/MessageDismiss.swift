import JSON
import JSONRPC

/// `message.dismiss {id}` -> `{dismissed}` (false when it already was); persisted before the reply
/// (SPEC.md §6). A dismissed message never comes back.
enum MessageDismiss: RPCMethod {
  static let name = "message.dismiss"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let id = try request.params.requiredString("id")
    guard try server.store.message(id: id) != nil else { throw RPCError.messageNotFound(id) }
    let dismissed = try server.store.dismiss(id: id, now: server.clock.now)
    if dismissed { server.feedChanged(request, reason: "dismissed", removed: [id]) }
    return ["dismissed": .bool(dismissed)]
  }
}
