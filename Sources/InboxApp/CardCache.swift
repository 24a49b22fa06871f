import InboxCore
import InboxStore
import JSON
import Synchronization

/// What reading a stored message costs once, kept for the next read: the payload parsed and
/// ingested into a message, and the last card resolved from it with the attributes and local state
/// it was resolved under. A row whose payload, ingest time, status or local state changed, or
/// attributes that changed, miss and are read again; nothing else invalidates an entry.
final class CardCache: Sendable {
  private struct Entry {
    var payload: String
    var ingestedAt: Int64
    var message: InboxMessage
    var resolved: Resolved?
  }

  private struct Resolved {
    var attributes: Attributes
    var status: MessageStatus
    var state: LocalState
    var card: Card
    var json: PrebuiltJSON
    var warnings: [Warning]
  }

  /// A card as resolved, with its wire shape (`Card.json`) made once with it.
  struct Found: Sendable {
    var card: Card
    var prebuilt: PrebuiltJSON
    var warnings: [Warning]

    var json: JSONValue { .prebuilt(prebuilt) }
    /// The bytes the card adds to a reply.
    var size: Int { prebuilt.encodedSize }
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let capacity: Int

  /// Enough for twenty full pages; a feed paged past it starts the cache afresh.
  init(capacity: Int = 4_096) { self.capacity = capacity }

  /// The card for `stored` under `attributes`, with the resolver's warnings.
  func card(_ stored: StoredMessage, attributes: Attributes) throws -> Found {
    let state = stored.localState
    let found = entries.withLock { entries -> Entry? in
      guard let entry = entries[stored.id], entry.payload == stored.payload, entry.ingestedAt == stored.ingestedAt
      else { return nil }
      return entry
    }
    if let resolved = found?.resolved, resolved.status == stored.status, resolved.state == state,
      resolved.attributes == attributes
    {
      return Found(card: resolved.card, prebuilt: resolved.json, warnings: resolved.warnings)
    }
    var message = try found?.message ?? ingest(stored)
    let parsed = message
    message.status = stored.status
    let (card, warnings) = Resolver.resolve(message, attributes: attributes, state: state)
    // Built for encoding once: a page that shows the card again only takes a reference to it.
    let json = PrebuiltJSON(card.json)
    let resolved = Resolved(
      attributes: attributes, status: stored.status, state: state, card: card, json: json, warnings: warnings)
    remember(
      Entry(payload: stored.payload, ingestedAt: stored.ingestedAt, message: parsed, resolved: resolved), stored.id)
    return Found(card: card, prebuilt: json, warnings: warnings)
  }

  /// Keeps a message just ingested, so the first read of it does not parse its payload again.
  func remember(_ message: InboxMessage, payload: String) {
    remember(Entry(payload: payload, ingestedAt: message.ingestedAt, message: message, resolved: nil), message.id)
  }

  /// Forgets the entries of `ids` (every entry when `all`): another process changed them.
  func forget(_ ids: [String], all: Bool) {
    entries.withLock { entries in
      if all { entries.removeAll(keepingCapacity: true) }
      for id in ids { entries[id] = nil }
    }
  }

  private func remember(_ entry: Entry, _ id: String) {
    entries.withLock { entries in
      if entries.count >= capacity && entries[id] == nil { entries.removeAll(keepingCapacity: true) }
      entries[id] = entry
    }
  }

  /// The stored payload read back into the engine's model (status as ingested; the caller sets it).
  private func ingest(_ stored: StoredMessage) throws -> InboxMessage {
    let raw = try JSONValue.parse(stored.payload, options: JSONReadOptions(maxDepth: 256))
    return try Engine.ingest(payload: raw, context: IngestContext(id: stored.id, now: stored.ingestedAt)).message
  }
}
