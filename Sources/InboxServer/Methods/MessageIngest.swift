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

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let payload = try request.params.required("payload")
    let now = server.clock.now
    let (message, ingestWarnings) = try Engine.ingest(
      payload: payload, context: IngestContext(id: try request.params.string("id"), now: now))
    let outcome = try server.store.insert(message, pinned: message.isPinned, now: now)
    switch outcome {
    case .added: server.feedChanged(request, reason: "ingested", added: [message.id])
    case .updated: server.feedChanged(request, reason: "ingested", updated: [message.id])
    case .dismissed, .expired: break
    }
    server.warnings.report(ingestWarnings, request)
    let stored = try server.store.message(id: message.id)
    let state = stored?.localState
    var resolved = message
    if let stored { resolved.status = stored.status }
    let (card, warnings) = Resolver.resolve(resolved, attributes: server.attributes, state: state)
    server.warnings.report(warnings, request)
    return ["message": card.json, "outcome": .string(outcome.rawValue)]
  }
}
