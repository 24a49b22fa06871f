import InboxApp
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

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let outcome = try server.inbox.tapButton(
      id: try params.required("id", params.string), index: try params.required("button", params.index),
      performDefault: params.bool("performDefault") ?? true)
    server.report(outcome.effects, request)
    return [
      "action": outcome.action.json, "performed": .bool(outcome.performed), "message": outcome.card?.json ?? .null,
    ]
  }
}
