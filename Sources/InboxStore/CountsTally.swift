import InboxCore

/// The stored counts (`feed_counts`, one row) kept without a query per changed message: each change
/// adds what it did to the open transaction's tally, and the tally is written once before COMMIT.
extension FeedCounts {
  /// What one message adds to the counts: nothing once dismissed (status 4 and up).
  init(_ state: TallyState) {
    guard !state.status.isDeleted else {
      self.init()
      return
    }
    let unread = !state.status.isRead
    self.init(
      total: 1, unread: unread ? 1 : 0, unactioned: state.status.isActionPerformed ? 0 : 1,
      pinned: state.pinned ? 1 : 0, unseen: unread && !state.seen ? 1 : 0)
  }

  static func + (lhs: FeedCounts, rhs: FeedCounts) -> FeedCounts {
    FeedCounts(
      total: lhs.total + rhs.total, unread: lhs.unread + rhs.unread, unactioned: lhs.unactioned + rhs.unactioned,
      pinned: lhs.pinned + rhs.pinned, unseen: lhs.unseen + rhs.unseen)
  }

  static func - (lhs: FeedCounts, rhs: FeedCounts) -> FeedCounts {
    FeedCounts(
      total: lhs.total - rhs.total, unread: lhs.unread - rhs.unread, unactioned: lhs.unactioned - rhs.unactioned,
      pinned: lhs.pinned - rhs.pinned, unseen: lhs.unseen - rhs.unseen)
  }

  var isZero: Bool { self == FeedCounts() }
}

/// What the counts read of one row: its status, its pin, and whether a host reported it shown.
typealias TallyState = (status: MessageStatus, pinned: Bool, seen: Bool)

extension StoredMessage {
  var tallyState: TallyState { (status, pinned, seenAt != nil) }
}

extension Database {
  /// Records that a message went from `old` (nil: absent) to `new` (nil: deleted).
  func tally(from old: TallyState?, to new: TallyState?) {
    let before = old.map(FeedCounts.init) ?? FeedCounts()
    let after = new.map(FeedCounts.init) ?? FeedCounts()
    countChanges = countChanges + after - before
  }

  /// Writes the transaction's tally into `feed_counts` (before COMMIT) and clears it.
  func flushTally() throws(StoreError) {
    defer { countChanges = FeedCounts() }
    guard !countChanges.isZero else { return }
    let change = countChanges
    try run(
      """
      UPDATE feed_counts SET total = total + ?, unread = unread + ?, unactioned = unactioned + ?, pinned = pinned + ?,
        unseen = unseen + ?
      """,
      [
        .int(Int64(change.total)), .int(Int64(change.unread)), .int(Int64(change.unactioned)),
        .int(Int64(change.pinned)), .int(Int64(change.unseen)),
      ])
  }
}
