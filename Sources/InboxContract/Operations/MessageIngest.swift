import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `message.ingest {payload, id?}` -> `{message, outcome}`: adds a message from a push payload, a
/// send-request notification object or a backend inbox message, committed before the reply.
///
/// Not an inbox message: error -32010, nothing stored. `outcome` is `added`, `updated` (same id:
/// payload replaced, local state kept), `dismissed` (it was dismissed before and stays so) or
/// `expired` (already past its expiry; not stored).
enum MessageIngest: RPCMethod {
  static let name = "message.ingest"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.ingest(payload: try params.required("payload", params.value), id: params.string("id"))
    server.report(result.effects, request)
    return ["message": result.card.json, "outcome": .string(result.outcome.rawValue)]
  }
}
