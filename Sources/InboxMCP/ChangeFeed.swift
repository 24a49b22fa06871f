import InboxApp
import JSON
import JSONRPC
import Synchronization

/// Turns each committed change of the feed (`FeedChange`, from requests and from the background
/// sync) into MCP's resource notifications, in the form the host's revision defines: after `initialize`,
/// `notifications/resources/list_changed` and `notifications/resources/updated` for the URIs of
/// `resources/subscribe`; in the stateless revision, the same notifications on each open
/// `subscriptions/listen` stream whose filter asked for them, stamped with its id.
final class ChangeFeed: Sendable {
  /// What one listen stream asked for and was granted.
  struct Stream: Sendable {
    var listChanged: Bool
    var uris: Set<String>
    /// Set by the host's `notifications/cancelled`: from then on the stream hears nothing.
    var cancellation: CancellationToken
  }

  private let era: Era
  private let subscribed = Mutex<Set<String>>([])
  private let streams = Mutex<[JSONValue: Stream]>([:])

  init(era: Era) { self.era = era }

  /// Most URIs a session may subscribe to with `resources/subscribe` (or name in one listen
  /// stream's filter): a message URI is accepted whether or not the message exists, so without a cap
  /// a host could grow this set without end.
  static let maxSubscriptions = 1_000

  /// Subscribes to `uri`; false, changing nothing, when `maxSubscriptions` other URIs are subscribed.
  func subscribe(_ uri: String) -> Bool {
    subscribed.withLock {
      guard $0.count < Self.maxSubscriptions || $0.contains(uri) else { return false }
      $0.insert(uri)
      return true
    }
  }

  /// Unsubscribes from `uri`; the set's storage shrinks with it, so the memory is returned.
  func unsubscribe(_ uri: String) {
    subscribed.withLock {
      $0.remove(uri)
      guard $0.capacity > 16 && $0.count < $0.capacity / 4 else { return }
      var smaller = Set<String>(minimumCapacity: $0.count)  // `Set($0)` would share the old storage
      smaller.formUnion($0)
      $0 = smaller
    }
  }

  /// Room the subscriptions hold (tests: it shrinks after unsubscribing).
  var subscriptionCapacity: Int { subscribed.withLock { $0.capacity } }

  func open(_ id: JSONValue, _ stream: Stream) { streams.withLock { $0[id] = stream } }
  func close(_ id: JSONValue) { _ = streams.withLock { $0.removeValue(forKey: id) } }

  /// Publishes one committed change of the feed through `send`.
  func publish(_ change: FeedChange, send: (String, JSONValue) -> Void) {
    let listChanged = !change.added.isEmpty || !change.removed.isEmpty
    let uris = [ResourceURI.feed, ResourceURI.counts] + (change.updated + change.removed).map(ResourceURI.message)

    if era.isHandshake {
      if listChanged { send("notifications/resources/list_changed", [:]) }
      let wanted = subscribed.withLock { $0 }
      for uri in uris where wanted.contains(uri) { send("notifications/resources/updated", ["uri": .string(uri)]) }
    }
    for (id, stream) in streams.withLock({ $0 }) where !stream.cancellation.isCancelled {
      let meta: JSONValue = [Revision.subscriptionKey: id]
      if listChanged && stream.listChanged { send("notifications/resources/list_changed", ["_meta": meta]) }
      for uri in uris where stream.uris.contains(uri) {
        send("notifications/resources/updated", ["uri": .string(uri), "_meta": meta])
      }
    }
  }
}
