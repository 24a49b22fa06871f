/// The seen mark: a host reports the rows it showed (`feed.seen`), or that the inbox was opened
/// (`feed.markAllSeen`), and the unread ones stop counting as `unseen`. Kept in the store alone:
/// the backend has no such status, so nothing is queued for it.
extension InboxStore {
  /// Marks the visible unread messages of `ids` not seen yet seen; returns the ids that changed.
  /// A read message is seen already (what was read was shown), so it is left as it is.
  public func markSeen(ids: [String], now: Int64) throws -> [String] {
    try write { database in
      var seen: [String] = []
      for id in ids {
        guard let row = try Self.row(database, id: id), !row.isDismissed, row.isUnseen else { continue }
        if let expiresAt = row.expiresAt, expiresAt <= now { continue }
        try Self.see(database, row, now: now)
        seen.append(id)
      }
      return seen
    }
  }

  /// Marks every visible unseen message (that `customData` selects) seen; returns their ids.
  public func markAllSeen(now: Int64, customData: CustomDataFilter? = nil) throws -> [String] {
    try write { database in
      let scope = FeedScope(filter: customData, now: now)
      let unseen = customData == nil ? " AND status < 2 AND seen_at IS NULL" : " AND t.status < 2 AND NOT t.seen"
      let select = scope.select(
        customData == nil ? StoredMessage.columnsWithoutPayload : StoredMessage.joinedColumnsWithoutPayload,
        extra: unseen + " ORDER BY " + scope.column("id"))
      var rows: [StoredMessage] = []
      try database.query(SQL(select.sql), select.values) { rows.append(StoredMessage(row: $0)) }
      for row in rows { try Self.see(database, row, now: now) }
      return rows.map(\.id)
    }
  }

  /// Stamps the row seen, its tag rows with it, and counts it.
  private static func see(_ database: Database, _ row: StoredMessage, now: Int64) throws {
    try database.run("UPDATE messages SET seen_at = ? WHERE id = ?", [.int(now), .text(row.id)])
    try MessageTags.setSeen(database, id: row.id)
    database.tally(from: row.tallyState, to: (row.status, row.pinned, true))
  }
}
