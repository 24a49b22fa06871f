import JSON
import JSONRPC
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `subscriptions/listen {notifications}` (the stateless revision): acknowledges the part of the
/// filter the server honours (resource list changes and updates of its own URIs), then holds the
/// request open while `ChangeFeed` writes the stream. The host ends it with
/// `notifications/cancelled` (no reply then); the end of input ends it with a graceful result.
final class ListenStreams: Sendable {
  private let changes: ChangeFeed
  private let ending = Atomic<Bool>(false)

  init(changes: ChangeFeed) { self.changes = changes }

  /// Ends every stream: the host closed its input.
  func endAll() { ending.store(true, ordering: .releasing) }

  func listen(_ request: RequestContext) throws -> JSONValue {
    guard let id = request.id else { return .null }
    let filter = try request.params.objectParam("notifications") ?? [:]
    let listChanged = filter["resourcesListChanged"]?.boolValue == true
    let uris = (filter["resourceSubscriptions"]?.arrayValue ?? []).compactMap(\.stringValue).filter(ResourceURI.isKnown)
    guard Set(uris).count <= ChangeFeed.maxSubscriptions else {
      throw Resources.tooManySubscriptions("notifications.resourceSubscriptions")
    }
    var honored: JSONObject = [:]
    if listChanged { honored["resourcesListChanged"] = true }
    if !uris.isEmpty { honored["resourceSubscriptions"] = .array(uris.map(JSONValue.string)) }
    let meta: JSONValue = [Revision.subscriptionKey: id]
    changes.open(
      id, ChangeFeed.Stream(listChanged: listChanged, uris: Set(uris), cancellation: request.cancellation))
    defer { changes.close(id) }
    request.notify("notifications/subscriptions/acknowledged", ["notifications": .object(honored), "_meta": meta])
    while !ending.load(ordering: .acquiring) {
      try request.cancellation.check()
      usleep(20_000)
    }
    return ["_meta": meta]
  }
}
