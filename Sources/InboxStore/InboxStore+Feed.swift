import InboxCore

/// One page of the feed in feed order, and the cursor after it.
public struct FeedPage: Sendable {
  public var messages: [StoredMessage]
  /// The position after the last message, nil when the feed has no more.
  public var next: FeedCursor?
}

extension InboxStore {
  /// Reads up to `limit` visible messages (those `customData` selects) after `cursor`, in feed
  /// order (docs/engine.md#feed-order): pinned first, (unread first when asked), newest first, ties by id.
  ///
  /// Keyset paging: the position after the cursor is split into a few index range seeks (same key
  /// prefix with a later id, then a later sort time, then a later group), so a page costs O(limit)
  /// whatever the store size. Under a filter the same seeks run over the tag index (`FeedScope`).
  public func page(
    after cursor: FeedCursor?, limit: Int, unreadOnly: Bool, unreadFirst: Bool,
    customData: CustomDataFilter? = nil, now: Int64
  ) throws -> FeedPage {
    let scope = FeedScope(filter: customData, now: now)
    let status = scope.column("status")
    let keys =
      unreadFirst
      ? [scope.column("pinned"), "(\(status) < 2)", scope.column("sort_time")]
      : [scope.column("pinned"), scope.column("sort_time")]
    let order = keys.map { "\($0) DESC" }.joined(separator: ", ") + ", " + scope.column("id")
    let wanted = limit + 1
    let rows: [StoredMessage] = try read { database in
      var rows: [StoredMessage] = []
      func fetch(_ condition: String, _ values: [SQLValue]) throws {
        let select = scope.select(scope.columns, extra: (unreadOnly ? " AND \(status) < 2" : "") + condition)
        try database.query(
          SQL(select.sql + " ORDER BY \(order) LIMIT ?"), select.values + values + [.int(Int64(wanted - rows.count))]
        ) {
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
          condition += " AND \(scope.column("id")) > ?"
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
    let next =
      rows.count > limit
      ? page.last.map { self.cursor(after: $0, unreadFirst: unreadFirst, customData: customData) } : nil
    return FeedPage(messages: page, next: next)
  }

  /// The cursor that resumes right after `message`, in the feed `customData` selects.
  public func cursor(after message: StoredMessage, unreadFirst: Bool, customData: CustomDataFilter? = nil)
    -> FeedCursor
  {
    FeedCursor(
      storeID: storeID, unreadFirst: unreadFirst, pinned: message.pinned, unread: !message.status.isRead,
      sortTime: message.sentAt ?? Int64.min, id: message.id, filter: customData?.fingerprint ?? "")
  }

  /// `{total, unread, unactioned, pinned, unseen}` over visible messages (those `customData` selects): the
  /// counts the store keeps (one row of `feed_counts`, or of `tag_counts` for a one-key filter),
  /// less the expired messages not purged yet (an index range, empty once purged). A filter of
  /// several keys is counted over the first key's index range.
  public func counts(now: Int64, customData: CustomDataFilter? = nil) throws -> FeedCounts {
    try read { database in
      guard let customData else { return try Self.feedCounts(database, now: now) }
      guard customData.terms.count == 1, let term = customData.terms.first else {
        return try Self.countedCounts(database, FeedScope(filter: customData, now: now))
      }
      return try Self.tagCounts(database, term: term, now: now)
    }
  }

  private static func feedCounts(_ database: Database, now: Int64) throws -> FeedCounts {
    var counts = FeedCounts()
    try database.query("SELECT total, unread, unactioned, pinned, unseen FROM feed_counts") {
      counts = FeedCounts(row: $0)
    }
    try database.query(
      """
      SELECT count(*), coalesce(sum(status < 2), 0), coalesce(sum(status < 3), 0), coalesce(sum(pinned), 0),
        coalesce(sum(status < 2 AND seen_at IS NULL), 0)
      FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ? AND status < 4
      """, [.int(now)]
    ) { counts = counts - FeedCounts(row: $0) }
    return counts
  }

  private static func tagCounts(_ database: Database, term: (key: String, value: String), now: Int64) throws
    -> FeedCounts
  {
    var counts = FeedCounts()
    try database.query(
      "SELECT total, unread, unactioned, pinned, unseen FROM tag_counts WHERE key = ? AND value = ?",
      [.text(term.key), .text(term.value)]
    ) { counts = FeedCounts(row: $0) }
    try database.query(
      """
      SELECT count(*), coalesce(sum(m.status < 2), 0), coalesce(sum(m.status < 3), 0), coalesce(sum(m.pinned), 0),
        coalesce(sum(m.status < 2 AND m.seen_at IS NULL), 0)
      FROM messages m JOIN message_tags t ON t.message_id = m.id AND t.key = ?
      WHERE m.expires_at IS NOT NULL AND m.expires_at <= ? AND m.status < 4 AND t.value = ?
      """, [.text(term.key), .int(now), .text(term.value)]
    ) { counts = counts - FeedCounts(row: $0) }
    return counts
  }

  private static func countedCounts(_ database: Database, _ scope: FeedScope) throws -> FeedCounts {
    let select = scope.select(
      "count(*), coalesce(sum(t.status < 2), 0), coalesce(sum(t.status < 3), 0), coalesce(sum(t.pinned), 0), "
        + "coalesce(sum(t.status < 2 AND NOT t.seen), 0)")
    var counts = FeedCounts()
    try database.query(SQL(select.sql), select.values) { counts = FeedCounts(row: $0) }
    return counts
  }
}

extension FeedCounts {
  /// Five columns: total, unread, unactioned, pinned, unseen.
  init(row: Statement) {
    self.init(
      total: Int(row.int(0)), unread: Int(row.int(1)), unactioned: Int(row.int(2)), pinned: Int(row.int(3)),
      unseen: Int(row.int(4)))
  }
}
