import InboxApp
import JSON
import JSONRPC

/// `message.tap {id, performDefault?: true}` -> `{message, action, customData}` (SPEC.md §4):
/// marks the message read and opened, persistently, unless `performDefault` is false, and returns
/// its row action and custom data for the host to act on.
enum MessageTap: RPCMethod {
  static let name = "message.tap"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let outcome = try server.inbox.tap(
      id: try params.required("id", params.string), performDefault: params.bool("performDefault") ?? true)
    server.report(outcome.effects, request)
    return [
      "message": outcome.card.json, "action": outcome.action.json,
      "customData": outcome.card.customData.map(JSONValue.object) ?? .null,
    ]
  }
}
