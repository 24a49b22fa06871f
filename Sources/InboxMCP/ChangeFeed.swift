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
    /// The URIs asked for, by canonical form (`ResourceURI.canonical`), each as the host wrote it.
    var uris: [String: String]
    /// Set by the host's `notifications/cancelled`: from then on the stream hears nothing.
    var cancellation: CancellationToken
  }

  private let era: Era
  /// Subscribed URIs by canonical form, each as the host wrote it (notifications name that form).
  private let subscribed = Mutex<[String: String]>([:])
  private let streams = Mutex<[JSONValue: Stream]>([:])

  init(era: Era) { self.era = era }

  /// Most URIs a session may subscribe to with `resources/subscribe` (or name in one listen
  /// stream's filter): a message URI is accepted whether or not the message exists, so without a cap
  /// a host could grow this set without end.
  static let maxSubscriptions = 1_000

  /// Subscribes to `uri`; false, changing nothing, when `maxSubscriptions` other URIs are subscribed.
  func subscribe(_ uri: String) -> Bool {
    let key = ResourceURI.canonical(uri)
    return subscribed.withLock {
      guard $0.count < Self.maxSubscriptions || $0[key] != nil else { return false }
      $0[key] = uri
      return true
    }
  }

  /// `uris` by canonical form, each as written (a listen stream's filter).
  static func byCanonicalForm(_ uris: [String]) -> [String: String] {
    Dictionary(uris.map { (ResourceURI.canonical($0), $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Unsubscribes from `uri`; the set's storage shrinks with it, so the memory is returned.
  func unsubscribe(_ uri: String) {
    subscribed.withLock {
      $0.removeValue(forKey: ResourceURI.canonical(uri))
      guard $0.capacity > 16 && $0.count < $0.capacity / 4 else { return }
      // `Dictionary($0)` would share the old storage.
      var smaller = [String: String](minimumCapacity: $0.count)
      smaller.merge($0) { first, _ in first }
      $0 = smaller
    }
  }

  /// Room the subscriptions hold (tests: it shrinks after unsubscribing).
  var subscriptionCapacity: Int { subscribed.withLock { $0.capacity } }

  func open(_ id: JSONValue, _ stream: Stream) { streams.withLock { $0[id] = stream } }
  func close(_ id: JSONValue) { _ = streams.withLock { $0.removeValue(forKey: id) } }

  /// Publishes one committed change of the feed through `send`.
  /// A change made elsewhere that could not be told apart (no ids) may have touched every
  /// resource: the list, and each URI subscribed, is notified.
  func publish(_ change: FeedChange, send: (String, JSONValue) -> Void) {
    let untold = change.reason == .elsewhere && change.isEmpty
    let listChanged = untold || !change.added.isEmpty || !change.removed.isEmpty
    let uris = [ResourceURI.feed, ResourceURI.counts] + (change.updated + change.removed).map(ResourceURI.message)
    /// The URIs of `wanted` this change touches, as the host wrote them.
    func touched(_ wanted: [String: String]) -> [String] {
      untold ? wanted.keys.sorted().compactMap { wanted[$0] } : uris.compactMap { wanted[$0] }
    }

    if era.isHandshake {
      if listChanged { send("notifications/resources/list_changed", [:]) }
      for uri in touched(subscribed.withLock { $0 }) { send("notifications/resources/updated", ["uri": .string(uri)]) }
    }
    for (id, stream) in streams.withLock({ $0 }) where !stream.cancellation.isCancelled {
      let meta: JSONValue = [Revision.subscriptionKey: id]
      if listChanged && stream.listChanged { send("notifications/resources/list_changed", ["_meta": meta]) }
      for uri in touched(stream.uris) {
        send("notifications/resources/updated", ["uri": .string(uri), "_meta": meta])
      }
    }
  }
}
