/// What the feed order looks at in a card, so a store can sort and page without the whole card.
public struct FeedSortKey: Sendable, Hashable {
  /// Pinned messages come first.
  public var pinned: Bool
  /// Read state, used only by `FeedOrder.unreadFirst`.
  public var read: Bool
  /// Send time in unix seconds; nil sorts as the oldest.
  public var sentAt: Int64?
  /// The message id, the final tie-breaker.
  public var id: String

  /// Builds a key.
  public init(pinned: Bool, read: Bool, sentAt: Int64?, id: String) {
    self.pinned = pinned
    self.read = read
    self.sentAt = sentAt
    self.id = id
  }
}

/// The feed order (docs/engine.md#feed-order), a total order so pages are stable.
///
/// 1. pinned before not pinned;
/// 2. only with `unreadFirst`: unread before read, inside each pinned group;
/// 3. newest first by `sentAt` (a missing `sentAt` is the oldest);
/// 4. ids ascending, compared by their UTF-8 bytes (the order SQLite's BINARY collation uses), so two
///    messages sent in the same second still have one order.
public struct FeedOrder: Sendable, Hashable {
  /// InboxKit's unread-before-read transform; off by default.
  public var unreadFirst: Bool

  /// Builds an order.
  public init(unreadFirst: Bool = false) { self.unreadFirst = unreadFirst }

  /// The order the attributes ask for.
  public init(attributes: Attributes) { self.init(unreadFirst: attributes.unreadFirst) }

  /// Whether `lhs` comes before `rhs` in the feed.
  public func areInIncreasingOrder(_ lhs: FeedSortKey, _ rhs: FeedSortKey) -> Bool {
    if lhs.pinned != rhs.pinned { return lhs.pinned }
    if unreadFirst, lhs.read != rhs.read { return !lhs.read }
    switch (lhs.sentAt, rhs.sentAt) {
    case (let left?, let right?) where left != right: return left > right
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    return lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
  }

  /// The cards in feed order.
  public func sorted(_ cards: [Card]) -> [Card] {
    cards.sorted { areInIncreasingOrder($0.sortKey, $1.sortKey) }
  }
}
