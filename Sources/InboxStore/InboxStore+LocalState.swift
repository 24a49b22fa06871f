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
        try Self.raise(database, row, to: .read, now: now)
        changed.append(id)
      }
      return changed
    }
  }

  /// Marks every visible unread message (that `customData` selects) read; returns their ids.
  public func markAllRead(now: Int64, customData: CustomDataFilter? = nil) throws -> [String] {
    try changeAll(FeedScope(filter: customData, now: now), where: "< 2", to: .read, now: now)
  }

  /// Dismisses every visible message (that `customData` selects), or only the read ones (pinned
  /// or not, as InboxKit's `deleteAllReadMessages`); returns their ids, in feed order. One
  /// transaction: each dismissal queued for the backend as `message.dismiss` queues it.
  public func dismissAll(readOnly: Bool, customData: CustomDataFilter? = nil, now: Int64) throws -> [String] {
    try changeAll(
      FeedScope(filter: customData, now: now), where: readOnly ? "BETWEEN 2 AND 3" : "< 4", to: .dismissed, now: now)
  }

  /// Applies `change` to every visible message of `scope` whose status is `status`, in one write.
  private func changeAll(_ scope: FeedScope, where status: String, to change: LocalChange, now: Int64) throws
    -> [String]
  {
    try write { database in
      var rows: [StoredMessage] = []
      let order = [scope.column("pinned") + " DESC", scope.column("sort_time") + " DESC", scope.column("id")]
      let select = scope.select(
        scope.filter == nil ? StoredMessage.columnsWithoutPayload : StoredMessage.joinedColumnsWithoutPayload,
        extra: " AND \(scope.column("status")) \(status) ORDER BY " + order.joined(separator: ", "))
      try database.query(SQL(select.sql), select.values) { rows.append(StoredMessage(row: $0)) }
      for row in rows { try Self.raise(database, row, to: change, now: now) }
      return rows.map(\.id)
    }
  }

  /// A row tap: read and action performed (opened). Returns the updated message, nil if not visible.
  public func markOpened(id: String, now: Int64) throws -> StoredMessage? {
    try write { database in
      guard let row = try Self.row(database, id: id), !row.isDismissed else { return nil }
      if !row.status.isRead { try Self.raise(database, row, to: .read, now: now) }
      if !row.status.isActionPerformed {
        let current = try Self.row(database, id: id) ?? row
        try Self.raise(database, current, to: .opened, now: now)
      }
      return try Self.row(database, id: id)
    }
  }

  /// Dismisses a message for good; false when it was already dismissed or is unknown.
  public func dismiss(id: String, now: Int64) throws -> Bool {
    try write { database in
      guard let row = try Self.row(database, id: id), !row.isDismissed else { return false }
      try Self.raise(database, row, to: .dismissed, now: now)
      return true
    }
  }

  /// Raises the effective status (never lowers it), stamps the change time, and queues the change.
  static func raise(_ database: Database, _ row: StoredMessage, to change: LocalChange, now: Int64) throws {
    let status = change.status
    try database.run(change.statement, [.int(status.rawValue), .int(now), .text(row.id)])
    if max(row.status, status) != row.status {
      try MessageTags.setStatus(database, id: row.id, max(row.status, status).rawValue)
    }
    database.tally(from: row.tallyState, to: (max(row.status, status), row.pinned, row.seenAt != nil))
    try Outbox.enqueue(database, messageID: row.id, status: status, order: row.order, hash: row.hash, now: now)
  }
}

/// A local status change, and the column that stamps when the message first had it.
enum LocalChange {
  case read, opened, dismissed

  var status: MessageStatus {
    switch self {
    case .read: .read
    case .opened: .opened
    case .dismissed: .deletedByUser
    }
  }

  /// Raises the status and stamps the time once; a literal each, so the statement cache finds it
  /// by address.
  var statement: SQL {
    switch self {
    case .read: "UPDATE messages SET status = max(status, ?), read_at = coalesce(read_at, ?) WHERE id = ?"
    case .opened: "UPDATE messages SET status = max(status, ?), opened_at = coalesce(opened_at, ?) WHERE id = ?"
    case .dismissed:
      "UPDATE messages SET status = max(status, ?), dismissed_at = coalesce(dismissed_at, ?) WHERE id = ?"
    }
  }
}
