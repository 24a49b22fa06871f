import InboxCore
import InboxStore
import JSON

/// Which page of the feed: where to resume (a `nextCursor` token; nil for the first page) and how
/// many cards at most.
public struct PageRequest: Sendable, Hashable {
  public var cursor: String?
  public var limit: Int

  public init(cursor: String? = nil, limit: Int = 20) {
    self.cursor = cursor
    self.limit = limit
  }
}

/// Which cards a page shows: unread ones only, and only cards of these kinds (nil: every kind).
public struct FeedFilter: Sendable, Hashable {
  public var unreadOnly: Bool
  public var kinds: Set<CardKind>?

  public init(unreadOnly: Bool = false, kinds: Set<CardKind>? = nil) {
    self.unreadOnly = unreadOnly
    self.kinds = kinds
  }
}

/// A page of cards in feed order, the cursor after it (nil at the end) and the counts.
public struct FeedPageResult: Sendable, Hashable {
  public var cards: [Card]
  /// Each card's wire shape (`Card.json`), made once per resolved card and kept with it, so
  /// re-reading a page does not rebuild it.
  public var cardsJSON: [JSONValue]
  public var next: FeedCursor?
  public var counts: FeedCounts
  public var effects: Effects
}

/// The counts over visible messages, and the expiries purged to get them.
public struct CountsResult: Sendable, Hashable {
  public var counts: FeedCounts
  public var effects: Effects
}

/// Ids that became read.
public struct MarkReadResult: Sendable, Hashable {
  public var changed: [String]
  /// The ids asked for that did not change (unknown, dismissed or already read).
  public var unchanged: [String]
  public var effects: Effects
}

extension Inbox {
  /// A page of the feed (SPEC.md §5). Keyset pages: a card never appears twice nor is skipped
  /// while a host pages. `kinds` filters on the resolved kind, so the store is read in batches
  /// until the page is full; at most `max(10 × limit, 1000)` messages are read for one page, and a
  /// page that hits that comes back short with a cursor to go on from.
  public func list(page: PageRequest = PageRequest(), filter: FeedFilter = FeedFilter()) throws -> FeedPageResult {
    let attributes = self.attributes
    let unreadFirst = attributes.unreadFirst
    let limit = page.limit
    var next: FeedCursor?
    if let token = page.cursor {
      do {
        next = try FeedCursor(token: token, storeID: store.storeID, unreadFirst: unreadFirst)
      } catch {
        throw InboxError.invalidArgument(argument: "cursor", reason: error.reason)
      }
    }
    let now = clock.now
    var effects = Effects()
    try purgeExpired(now: now, &effects)
    var cards: [Card] = []
    var cardsJSON: [JSONValue] = []
    var scanned = 0
    let scanLimit = max(10 * limit, 1_000)
    repeat {
      let batch = try store.page(
        after: next, limit: filter.kinds == nil ? limit - cards.count : limit, unreadOnly: filter.unreadOnly,
        unreadFirst: unreadFirst, now: now)
      next = batch.next
      for stored in batch.messages {
        scanned += 1
        let found = try resolved(stored, &effects, attributes: attributes)
        guard filter.kinds?.contains(found.card.kind) ?? true else { continue }
        cards.append(found.card)
        cardsJSON.append(found.json)
        if cards.count == limit {
          // Full: resume right after this message (later ones of the batch are read again).
          if batch.messages.last != stored { next = store.cursor(after: stored, unreadFirst: unreadFirst) }
          break
        }
      }
    } while cards.count < limit && next != nil && scanned < scanLimit
    return FeedPageResult(
      cards: cards, cardsJSON: cardsJSON, next: next, counts: try store.counts(now: now), effects: effects)
  }

  /// `{total, unread, unactioned, pinned}` over visible messages, expired ones purged first.
  public func counts() throws -> CountsResult {
    let now = clock.now
    var effects = Effects()
    try purgeExpired(now: now, &effects)
    return CountsResult(counts: try store.counts(now: now), effects: effects)
  }

  /// Marks these messages read; each change is queued for the backend.
  public func markRead(ids: [String]) throws -> MarkReadResult {
    let changed = try store.markRead(ids: ids, now: clock.now)
    let changedSet = Set(changed)
    return MarkReadResult(
      changed: changed, unchanged: ids.filter { !changedSet.contains($0) },
      effects: Effects(changes: changed.isEmpty ? [] : [FeedChange(.read, updated: changed)]))
  }

  /// Marks every visible unread message read.
  public func markAllRead() throws -> MarkReadResult {
    let changed = try store.markAllRead(now: clock.now)
    return MarkReadResult(
      changed: changed, unchanged: [],
      effects: Effects(changes: changed.isEmpty ? [] : [FeedChange(.read, updated: changed)]))
  }
}
