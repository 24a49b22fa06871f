import InboxCore
import JSON

/// The sample feed kept in `Resources/sample-feed.json`: every card kind, a pinned message, buttons
/// of each action and a few degradations, so a newcomer sees the whole engine at once.
public enum SampleFeed {
  /// The entries as kept: `[{"id", "age", "payload"}]`, each payload a createMessage notification.
  public static var json: [UInt8] { PackageResources.sample_feed_json }

  /// Ingests the sample into a store that has never held a message (dismissed ones count as held,
  /// so a dismissal survives a restart). Send times count back from now by each entry's `age`.
  static func seedIfEmpty(_ inbox: Inbox) throws {
    guard try inbox.store.isEmpty() else { return }
    let entries = try JSONValue.parse(bytes: PackageResources.sample_feed_json, options: JSONReadOptions(maxDepth: 64))
    let now = inbox.clock.now
    for entry in entries.arrayValue ?? [] {
      guard let id = entry["id"]?.stringValue, let payload = entry["payload"] else { continue }
      // No send_date: a send-request object is sent at its context's `now`.
      let sentAt = now - (entry["age"]?.intValue ?? 0)
      let (message, _) = try Engine.ingest(payload: payload, context: IngestContext(id: id, now: sentAt))
      _ = try inbox.store.insert(message, pinned: message.isPinned, now: now)
    }
  }
}
