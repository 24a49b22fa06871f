import InboxCore
import JSON
import JSONRPC

/// `button.tap {id, button, performDefault?: true}` -> `{action, performed, message}` (SPEC.md §3).
///
/// `dismiss` and `markRead` are performed by the engine (persistently) unless `performDefault` is
/// false; `openURL` and `custom` are returned for the host to act on, never performed.
enum ButtonTap: RPCMethod {
  static let name = "button.tap"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let id = try request.params.requiredString("id")
    let index = try request.params.int("button") ?? { throw RPCError.invalidParams("button", "required") }()
    let card = try server.card(server.visibleMessage(id), request)
    guard index >= 0, index < card.buttons.count else {
      throw RPCError.invalidParams(
        "button", "no button \(index): the card has \(card.buttons.count) (indexes start at 0)")
    }
    let action = card.buttons[Int(index)].action
    let performDefault = try request.params.bool("performDefault") ?? true
    var performed = false
    var message: JSONValue = card.json
    let now = server.clock.now
    switch action {
    case .dismiss where performDefault:
      performed = try server.store.dismiss(id: id, now: now)
      if performed { server.feedChanged(request, reason: "dismissed", removed: [id]) }
      message = .null
    case .markRead where performDefault:
      performed = true
      if !(try server.store.markRead(ids: [id], now: now)).isEmpty {
        server.feedChanged(request, reason: "read", updated: [id])
      }
      message = try server.card(server.visibleMessage(id), request).json
    default:
      break
    }
    return ["action": action.json, "performed": .bool(performed), "message": message]
  }
}
