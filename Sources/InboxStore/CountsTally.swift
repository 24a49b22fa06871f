import InboxCore

/// The stored counts (`feed_counts`, one row) kept without a query per changed message: each change
/// adds what it did to the open transaction's tally, and the tally is written once before COMMIT.
extension FeedCounts {
  /// What one message adds to the counts: nothing once dismissed (status 4 and up).
  init(status: MessageStatus, pinned: Bool) {
    guard !status.isDeleted else {
      self.init()
      return
    }
    self.init(
      total: 1, unread: status.isRead ? 0 : 1, unactioned: status.isActionPerformed ? 0 : 1, pinned: pinned ? 1 : 0)
  }

  static func + (lhs: FeedCounts, rhs: FeedCounts) -> FeedCounts {
    FeedCounts(
      total: lhs.total + rhs.total, unread: lhs.unread + rhs.unread, unactioned: lhs.unactioned + rhs.unactioned,
      pinned: lhs.pinned + rhs.pinned)
  }

  static func - (lhs: FeedCounts, rhs: FeedCounts) -> FeedCounts {
    FeedCounts(
      total: lhs.total - rhs.total, unread: lhs.unread - rhs.unread, unactioned: lhs.unactioned - rhs.unactioned,
      pinned: lhs.pinned - rhs.pinned)
  }

  var isZero: Bool { self == FeedCounts() }
}

extension Database {
  /// Records that a message went from `old` (nil: absent) to `new` (nil: deleted).
  func tally(from old: (status: MessageStatus, pinned: Bool)?, to new: (status: MessageStatus, pinned: Bool)?) {
    let before = old.map { FeedCounts(status: $0.status, pinned: $0.pinned) } ?? FeedCounts()
    let after = new.map { FeedCounts(status: $0.status, pinned: $0.pinned) } ?? FeedCounts()
    countChanges = countChanges + after - before
  }

  /// Writes the transaction's tally into `feed_counts` (before COMMIT) and clears it.
  func flushTally() throws(StoreError) {
    defer { countChanges = FeedCounts() }
    guard !countChanges.isZero else { return }
    let change = countChanges
    try run(
      """
      UPDATE feed_counts SET total = total + ?, unread = unread + ?, unactioned = unactioned + ?, pinned = pinned + ?
      """,
      [
        .int(Int64(change.total)), .int(Int64(change.unread)), .int(Int64(change.unactioned)),
        .int(Int64(change.pinned)),
      ])
  }
}
