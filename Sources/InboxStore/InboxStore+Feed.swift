import InboxCore

/// One page of the feed in feed order, and the cursor after it.
public struct FeedPage: Sendable {
  public var messages: [StoredMessage]
  /// The position after the last message, nil when the feed has no more.
  public var next: FeedCursor?
}

extension InboxStore {
  /// Reads up to `limit` visible messages after `cursor`, in feed order (SPEC.md §5): pinned first,
  /// (unread first when asked), newest first, ties by id.
  ///
  /// Keyset paging: the position after the cursor is split into a few index range seeks (same key
  /// prefix with a later id, then a later sort time, then a later group), so a page costs O(limit)
  /// whatever the store size.
  public func page(
    after cursor: FeedCursor?, limit: Int, unreadOnly: Bool, unreadFirst: Bool, now: Int64
  ) throws -> FeedPage {
    let keys = unreadFirst ? ["pinned", "(status < 2)", "sort_time"] : ["pinned", "sort_time"]
    let order = keys.map { "\($0) DESC" }.joined(separator: ", ") + ", id"
    var filter = "status < 4 AND (expires_at IS NULL OR expires_at > ?)"
    if unreadOnly { filter += " AND status < 2" }
    let wanted = limit + 1
    let rows: [StoredMessage] = try read { database in
      var rows: [StoredMessage] = []
      func fetch(_ condition: String, _ values: [SQLValue]) throws {
        let sql =
          "SELECT \(StoredMessage.columns) FROM messages WHERE \(filter)\(condition) ORDER BY \(order) LIMIT ?"
        try database.query(SQL(sql), [.int(now)] + values + [.int(Int64(wanted - rows.count))]) {
          rows.append(StoredMessage(row: $0))
        }
      }
      guard let cursor else {
        try fetch("", [])
        return rows
      }
      let values: [SQLValue] =
        unreadFirst
        ? [.int(cursor.pinned ? 1 : 0), .int(cursor.unread ? 1 : 0), .int(cursor.sortTime)]
        : [.int(cursor.pinned ? 1 : 0), .int(cursor.sortTime)]
      // Deepest level first: same key, later id; then each shorter prefix with a smaller next key.
      for level in stride(from: keys.count, through: 0, by: -1) where rows.count < wanted {
        var condition = ""
        var bound: [SQLValue] = []
        for index in 0..<min(level, keys.count) {
          condition += " AND \(keys[index]) = ?"
          bound.append(values[index])
        }
        if level == keys.count {
          condition += " AND id > ?"
          bound.append(.text(cursor.id))
        } else {
          condition += " AND \(keys[level]) < ?"
          bound.append(values[level])
        }
        try fetch(condition, bound)
      }
      return rows
    }
    let page = Array(rows.prefix(limit))
    let next = rows.count > limit ? page.last.map { self.cursor(after: $0, unreadFirst: unreadFirst) } : nil
    return FeedPage(messages: page, next: next)
  }

  /// The cursor that resumes right after `message`.
  public func cursor(after message: StoredMessage, unreadFirst: Bool) -> FeedCursor {
    FeedCursor(
      storeID: storeID, unreadFirst: unreadFirst, pinned: message.pinned, unread: !message.status.isRead,
      sortTime: message.sentAt ?? Int64.min, id: message.id)
  }

  /// `{total, unread, unactioned, pinned}` over visible messages: the counts the store keeps (one
  /// row), less the expired messages not purged yet (an index range, empty once purged).
  public func counts(now: Int64) throws -> FeedCounts {
    try read { database in
      var counts = FeedCounts()
      try database.query("SELECT total, unread, unactioned, pinned FROM feed_counts") { row in
        counts = FeedCounts(
          total: Int(row.int(0)), unread: Int(row.int(1)), unactioned: Int(row.int(2)), pinned: Int(row.int(3)))
      }
      try database.query(
        """
        SELECT count(*), coalesce(sum(status < 2), 0), coalesce(sum(status < 3), 0), coalesce(sum(pinned), 0)
        FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ? AND status < 4
        """, [.int(now)]
      ) { row in
        counts.total -= Int(row.int(0))
        counts.unread -= Int(row.int(1))
        counts.unactioned -= Int(row.int(2))
        counts.pinned -= Int(row.int(3))
      }
      return counts
    }
  }
}
