import InboxCore
import InboxStore
import JSON

/// Which page of the feed: where to resume (a `nextCursor` token; nil for the first page), how
/// many cards at most, and how many bytes of cards at most (nil: the inbox's `maxPageBytes`).
public struct PageRequest: Sendable, Hashable {
  public var cursor: String?
  public var limit: Int
  /// A page whose next card would pass this ends before it, with a cursor to it; a card larger
  /// than this on its own is left out with a warning, so no page is ever too large to answer.
  public var maxBytes: Int?

  public init(cursor: String? = nil, limit: Int = 20, maxBytes: Int? = nil) {
    self.cursor = cursor
    self.limit = limit
    self.maxBytes = maxBytes
  }
}

/// Which cards a page shows: unread ones only, only cards of these kinds (nil: every kind), and
/// only messages whose custom data matches (nil: all; the same filter `counts`, `markAllRead` and
/// `dismissAll` take).
public struct FeedFilter: Sendable, Hashable {
  public var unreadOnly: Bool
  public var kinds: Set<CardKind>?
  public var customData: CustomDataFilter?

  public init(unreadOnly: Bool = false, kinds: Set<CardKind>? = nil, customData: CustomDataFilter? = nil) {
    self.unreadOnly = unreadOnly
    self.kinds = kinds
    self.customData = customData
  }
}

/// A page of cards in feed order, the cursor after it (nil at the end) and the counts (of the
/// messages the page's custom-data filter selects, when it has one).
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

/// Ids that a bulk dismissal removed from the feed, in feed order.
public struct DismissAllResult: Sendable, Hashable {
  public var dismissed: [String]
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
  /// A page of the feed (docs/engine.md#feed-order), of the messages `filter.customData` selects when it is set
  /// (a cursor made under another filter is refused). Keyset pages: a card never appears twice nor is skipped
  /// while a host pages. `kinds` filters on the resolved kind, so the store is read in batches
  /// until the page is full; at most `max(10 × limit, 1000)` messages are read for one page, and a
  /// page that hits that comes back short with a cursor to go on from. A message no page may carry
  /// (a payload past `messageLimit`, stored before it was set, or a card past the page's bytes) is
  /// left out with a `messageOmitted` warning and stays in the store; a page full by bytes ends
  /// early with a cursor, so one message never makes a page fail.
  public func list(page: PageRequest = PageRequest(), filter: FeedFilter = FeedFilter()) throws -> FeedPageResult {
    let attributes = self.attributes
    let unreadFirst = attributes.unreadFirst
    let customData = filter.customData
    let limit = page.limit
    var next: FeedCursor?
    if let token = page.cursor {
      do {
        next = try FeedCursor(
          token: token, storeID: store.storeID, unreadFirst: unreadFirst, filter: customData?.fingerprint ?? "")
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
    var bytes = 0
    let maxBytes = page.maxBytes ?? options.maxPageBytes
    var full = false
    let scanLimit = max(10 * limit, 1_000)
    repeat {
      let start = next
      let batch = try store.page(
        after: next, limit: filter.kinds == nil ? limit - cards.count : limit, unreadOnly: filter.unreadOnly,
        unreadFirst: unreadFirst, customData: customData, now: now)
      next = batch.next
      var previous: StoredMessage?
      for stored in batch.messages {
        defer { previous = stored }
        scanned += 1
        guard let found = try pageable(stored, maxBytes, &effects, attributes: attributes) else { continue }
        guard filter.kinds?.contains(found.card.kind) ?? true else { continue }
        if bytes + found.size > maxBytes {
          // Full by size: resume at this message (a page's first card always fits).
          next = previous.map { store.cursor(after: $0, unreadFirst: unreadFirst, customData: customData) } ?? start
          full = true
          break
        }
        bytes += found.size + 1
        cards.append(found.card)
        cardsJSON.append(found.json)
        if cards.count == limit {
          // Full: resume right after this message (later ones of the batch are read again).
          if batch.messages.last != stored {
            next = store.cursor(after: stored, unreadFirst: unreadFirst, customData: customData)
          }
          break
        }
      }
    } while !full && cards.count < limit && next != nil && scanned < scanLimit
    return FeedPageResult(
      cards: cards, cardsJSON: cardsJSON, next: next, counts: try store.counts(now: now, customData: customData),
      effects: effects)
  }

  /// The card of `stored` if a page may carry it; else nil, with a warning saying why it is left out.
  private func pageable(
    _ stored: StoredMessage, _ maxBytes: Int, _ effects: inout Effects, attributes: Attributes
  ) throws -> CardCache.Found? {
    let size = stored.payload.utf8.count
    guard messageLimit.admits(size) else {
      effects.warnings.append(Self.omitted(stored.id, messageLimit.reason(size: size)))
      return nil
    }
    let found = try resolved(stored, &effects, attributes: attributes)
    if found.size > maxBytes {
      effects.warnings.append(
        Self.omitted(stored.id, "its card is \(found.size) bytes, more than a page may hold (\(maxBytes))"))
      return nil
    }
    return found
  }

  private static func omitted(_ id: String, _ reason: String) -> Warning {
    Warning(messageId: id, reason: "left out of the page: " + reason + "; it stays in the store", code: .messageOmitted)
  }

  /// `{total, unread, unactioned, pinned}` over visible messages (those `customData` selects),
  /// expired ones purged first.
  public func counts(customData: CustomDataFilter? = nil) throws -> CountsResult {
    let now = clock.now
    var effects = Effects()
    try purgeExpired(now: now, &effects)
    return CountsResult(counts: try store.counts(now: now, customData: customData), effects: effects)
  }

  /// `change` with the feed's counts as they stand now, after it committed (a later change may
  /// be in them too; its own report follows). Without counts when the store cannot be read: the
  /// change itself has committed and is reported all the same.
  public func counted(_ change: FeedChange) -> FeedChange {
    var change = change
    change.counts = try? store.counts(now: clock.now)
    return change
  }

  /// Marks these messages read; each change is queued for the backend.
  public func markRead(ids: [String]) throws -> MarkReadResult {
    let changed = try store.markRead(ids: ids, now: clock.now)
    let changedSet = Set(changed)
    return MarkReadResult(
      changed: changed, unchanged: ids.filter { !changedSet.contains($0) },
      effects: Effects(changes: changed.isEmpty ? [] : [FeedChange(.read, updated: changed)]))
  }

  /// Marks every visible unread message (that `customData` selects) read.
  public func markAllRead(customData: CustomDataFilter? = nil) throws -> MarkReadResult {
    let changed = try store.markAllRead(now: clock.now, customData: customData)
    return MarkReadResult(
      changed: changed, unchanged: [],
      effects: Effects(changes: changed.isEmpty ? [] : [FeedChange(.read, updated: changed)]))
  }

  /// Dismisses every visible message (that `customData` selects), or only the read ones, pinned
  /// or not, in one transaction; each dismissal is queued for the backend (status 4), and one
  /// change lists every id.
  public func dismissAll(readOnly: Bool, customData: CustomDataFilter? = nil) throws -> DismissAllResult {
    let dismissed = try store.dismissAll(readOnly: readOnly, customData: customData, now: clock.now)
    cache.forget(dismissed, all: false)
    return DismissAllResult(
      dismissed: dismissed,
      effects: Effects(changes: dismissed.isEmpty ? [] : [FeedChange(.dismissed, removed: dismissed)]))
  }
}
