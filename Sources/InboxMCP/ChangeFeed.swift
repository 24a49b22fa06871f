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

  func subscribe(_ uri: String) { _ = subscribed.withLock { $0.insert(uri) } }
  func unsubscribe(_ uri: String) { _ = subscribed.withLock { $0.remove(uri) } }

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
