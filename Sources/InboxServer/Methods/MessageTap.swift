import JSON
import JSONRPC

/// `message.tap {id, performDefault?: true}` -> `{message, action, customData}` (SPEC.md §4):
/// marks the message read and opened, persistently, unless `performDefault` is false, and returns
/// its row action and custom data for the host to act on.
enum MessageTap: RPCMethod {
  static let name = "message.tap"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let id = try request.params.requiredString("id")
    var stored = try server.visibleMessage(id)
    if try request.params.bool("performDefault") ?? true {
      let wasOpened = stored.status.isActionPerformed
      guard let opened = try server.store.markOpened(id: id, now: server.clock.now) else {
        throw RPCError.messageNotFound(id)
      }
      stored = opened
      if !wasOpened { server.feedChanged(request, reason: "opened", updated: [id]) }
    }
    let card = try server.card(stored, request)
    return [
      "message": card.json, "action": card.rowAction.json,
      "customData": card.customData.map(JSONValue.object) ?? .null,
    ]
  }
}
