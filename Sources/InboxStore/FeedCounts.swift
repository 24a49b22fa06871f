/// `{total, unread, unactioned, pinned, unseen}` over the visible messages: not dismissed, not expired.
public struct FeedCounts: Sendable, Hashable {
  public var total: Int
  public var unread: Int
  /// Not opened (no action performed yet).
  public var unactioned: Int
  public var pinned: Int
  /// Unread and never reported shown (`feed.seen`): a badge's "new".
  public var unseen: Int

  public init(total: Int = 0, unread: Int = 0, unactioned: Int = 0, pinned: Int = 0, unseen: Int = 0) {
    self.total = total
    self.unread = unread
    self.unactioned = unactioned
    self.pinned = pinned
    self.unseen = unseen
  }
}
