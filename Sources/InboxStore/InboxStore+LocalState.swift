import InboxCore

/// Local status changes. Each one updates the message and queues the matching `inboxStatus` call
/// in the outbox in one transaction, so the change and its delivery to the backend are never split.
extension InboxStore {
  /// Marks messages read; returns the ids that changed (unknown, dismissed or already read ones do not).
  public func markRead(ids: [String], now: Int64) throws -> [String] {
    try write { database in
      var changed: [String] = []
      for id in ids {
        guard let row = try Self.row(database, id: id), !row.isDismissed, !row.status.isRead else { continue }
        try Self.raise(database, row, to: .read, column: "read_at", now: now)
        changed.append(id)
      }
      return changed
    }
  }

  /// Marks every visible unread message read; returns their ids.
  public func markAllRead(now: Int64) throws -> [String] {
    try write { database in
      var rows: [StoredMessage] = []
      try database.query(
        "SELECT \(StoredMessage.columns) FROM messages WHERE status < 2 AND (expires_at IS NULL OR expires_at > ?)",
        [.int(now)]
      ) { rows.append(StoredMessage(row: $0)) }
      for row in rows { try Self.raise(database, row, to: .read, column: "read_at", now: now) }
      return rows.map(\.id)
    }
  }

  /// A row tap: read and action performed (opened). Returns the updated message, nil if not visible.
  public func markOpened(id: String, now: Int64) throws -> StoredMessage? {
    try write { database in
      guard let row = try Self.row(database, id: id), !row.isDismissed else { return nil }
      if !row.status.isRead { try Self.raise(database, row, to: .read, column: "read_at", now: now) }
      if !row.status.isActionPerformed {
        let current = try Self.row(database, id: id) ?? row
        try Self.raise(database, current, to: .opened, column: "opened_at", now: now)
      }
      return try Self.row(database, id: id)
    }
  }

  /// Dismisses a message for good; false when it was already dismissed or is unknown.
  public func dismiss(id: String, now: Int64) throws -> Bool {
    try write { database in
      guard let row = try Self.row(database, id: id), !row.isDismissed else { return false }
      try Self.raise(database, row, to: .deletedByUser, column: "dismissed_at", now: now)
      return true
    }
  }

  /// Raises the effective status (never lowers it), stamps the change time, and queues the change.
  static func raise(
    _ database: Database, _ row: StoredMessage, to status: MessageStatus, column: String, now: Int64
  ) throws {
    try database.run(
      "UPDATE messages SET status = max(status, ?), \(column) = coalesce(\(column), ?) WHERE id = ?",
      [.int(status.rawValue), .int(now), .text(row.id)])
    database.tally(from: (row.status, row.pinned), to: (max(row.status, status), row.pinned))
    try Outbox.enqueue(database, messageID: row.id, status: status, order: row.order, hash: row.hash, now: now)
  }
}
