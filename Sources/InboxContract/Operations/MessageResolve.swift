import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `message.resolve {payload, attributes?, id?, now?}` -> `Card`: resolves any of the three payload
/// shapes without storing anything (previews and contract tests; no store needed).
///
/// `attributes` apply to this call only, over the ones in force. `id` names a send-request object
/// (which has none; default: derived from the payload), `now` (unix seconds) is the send time of a
/// push or `send_date: "now"` request and the base of `inbox_days` (default: the server's clock).
enum MessageResolve: RPCMethod {
  static let name = "message.resolve"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.resolve(
      payload: try params.required("payload", params.value),
      context: PayloadContext(id: params.string("id"), now: params.int("now")),
      attributes: params.value("attributes"))
    server.report(result.effects, request)
    return result.card.json
  }
}
