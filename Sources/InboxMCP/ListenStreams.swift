import JSON
import JSONRPC
import Synchronization

/// `subscriptions/listen {notifications}` (the stateless revision): acknowledges the part of the
/// filter the server honours (resource list changes and updates of its own URIs), then keeps the
/// request open while `ChangeFeed` writes the stream. An open stream is a reply held, not a
/// thread: the host ends it with `notifications/cancelled` (no reply then); the end of input ends
/// it with a graceful result.
final class ListenStreams: Sendable {
  private struct Open {
    var reply: Reply
    var meta: JSONValue
  }

  private let changes: ChangeFeed
  /// Streams held open, by request id; nil once input has ended (a stream opened then ends at once).
  private let open = Mutex<[JSONValue: Open]?>([:])

  init(changes: ChangeFeed) { self.changes = changes }

  /// Ends every stream gracefully: the host closed its input.
  func endAll() {
    let ended = open.withLock { open in
      defer { open = nil }
      return open ?? [:]
    }
    for (id, stream) in ended { end(id, stream.reply, .success(["_meta": stream.meta])) }
  }

  func listen(_ request: RequestContext, _ reply: Reply) {
    guard let id = request.id else { return reply.succeed(.null) }
    let filter: JSONObject
    do {
      filter = try request.params.objectParam("notifications") ?? [:]
    } catch {
      return reply.fail(error)
    }
    let listChanged = filter["resourcesListChanged"]?.boolValue == true
    let uris = (filter["resourceSubscriptions"]?.arrayValue ?? []).compactMap(\.stringValue).filter(ResourceURI.isKnown)
    let wanted = ChangeFeed.byCanonicalForm(uris)
    guard wanted.count <= ChangeFeed.maxSubscriptions else {
      return reply.fail(Resources.tooManySubscriptions("notifications.resourceSubscriptions"))
    }
    var honored: JSONObject = [:]
    if listChanged { honored["resourcesListChanged"] = true }
    if !uris.isEmpty { honored["resourceSubscriptions"] = .array(uris.map(JSONValue.string)) }
    let meta: JSONValue = [Revision.subscriptionKey: id]
    changes.open(
      id, ChangeFeed.Stream(listChanged: listChanged, uris: wanted, cancellation: request.cancellation))
    request.notify("notifications/subscriptions/acknowledged", ["notifications": .object(honored), "_meta": meta])
    let held = open.withLock { open -> Bool in
      guard open != nil else { return false }
      open?[id] = Open(reply: reply, meta: meta)
      return true
    }
    guard held else { return end(id, reply, .success(["_meta": meta])) }
    request.cancellation.onCancel { [self] in
      guard let stream = open.withLock({ $0?.removeValue(forKey: id) }) else { return }
      end(id, stream.reply, .failure(CancellationError()))
    }
  }

  private func end(_ id: JSONValue, _ reply: Reply, _ outcome: Result<JSONValue, any Error>) {
    changes.close(id)
    reply(outcome)
  }
}
