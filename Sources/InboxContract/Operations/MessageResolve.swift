import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `message.resolve {payload, attributes?, id?, now?, perPlatform?}` -> `Card`: resolves any of the
/// three payload shapes without storing anything (previews and contract tests; no store needed);
/// `perPlatform` adds the card on each platform a send request names (`platforms`).
///
/// `attributes` apply to this call only, over the ones in force. `id` names a send-request object
/// (which has none; default: derived from the payload), `now` (unix seconds) is the send time of a
/// push or `send_date: "now"` request and the base of `inbox_days` (default: the server's clock).
enum MessageResolve: Operation {
  static let name = "message.resolve"

  static func run(_ params: ResolveParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.resolve(
      payload: params.payload, context: params.context, attributes: params.attributes,
      perPlatform: params.perPlatform)
    context.report(result.effects)
    return result.json
  }
}
