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

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let params = request.params
    let payload = try params.required("payload")
    var attributes = server.attributes
    if let partial = try params.value("attributes") {
      attributes = try attributes.applying(partial)
    }
    let context = IngestContext(id: try params.string("id"), now: try params.int("now") ?? server.clock.now)
    let resolution = try Engine.resolve(payload: payload, context: context, attributes: attributes)
    server.warnings.report(resolution.warnings, request)
    return resolution.card.json
  }
}
