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
enum MessageIngest: Operation {
  static let name = "message.ingest"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: IngestParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.ingest(payload: params.payload, id: params.id)
    context.report(result.effects)
    return ["message": result.card.json, "outcome": .string(result.outcome.rawValue)]
  }
}
