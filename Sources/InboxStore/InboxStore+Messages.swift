import InboxCore
import JSON

/// What happened to a message offered to the store.
public enum InsertOutcome: String, Sendable {
  case added
  /// It was there already; its payload was replaced and its local state kept.
  case updated
  /// It was dismissed before: a dismissed message never comes back (docs/engine.md#dismissal).
  case dismissed
  /// It has already expired, so it was not stored.
  case expired
}

extension InboxStore {
  /// Stores a message read by the engine, keeping any local state it already has.
  public func insert(_ message: InboxMessage, pinned: Bool, now: Int64) throws -> InsertOutcome {
    if let expiresAt = message.expiresAt, expiresAt <= now { return .expired }
    return try write { database in
      let existing = try Self.row(database, id: message.id)
      if let existing, existing.isDismissed { return .dismissed }
      let status = max(existing?.status ?? message.status, message.status)
      try Self.upsertRow(
        database, message, pinned: pinned, serverStatus: message.status, status: status, onlyRaise: true,
        replacing: existing != nil)
      database.tally(from: existing?.tallyState, to: (status, pinned, existing?.seenAt != nil))
      return existing == nil ? .added : .updated
    }
  }

  /// The message with this id, dismissed or not; nil when unknown.
  public func message(id: String) throws -> StoredMessage? {
    try read { try Self.row($0, id: id) }
  }

  /// The message if the host can see it: known, not dismissed, not expired.
  public func visibleMessage(id: String, now: Int64) throws -> StoredMessage? {
    guard let stored = try message(id: id), !stored.isDismissed else { return nil }
    if let expiresAt = stored.expiresAt, expiresAt <= now { return nil }
    return stored
  }

  /// Deletes every expired message (dismissed ones included) and returns their ids. Pages and counts
  /// leave expired messages out by themselves, so while another process holds the store the purge
  /// is skipped (nothing returned) rather than waited for.
  @discardableResult
  public func purgeExpired(now: Int64) throws -> [String] {
    let due = try read { database in
      try database.scalar("SELECT count(*) FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ?", [.int(now)])
    }
    guard (due ?? 0) > 0 else { return [] }
    return try writeIfFree(purge(now: now)) ?? []
  }

  private func purge(now: Int64) -> (Database) throws -> [String] {
    { database in
      var ids: [String] = []
      try database.query(
        "SELECT id, status, pinned, seen_at IS NOT NULL FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ?",
        [.int(now)]
      ) { row in
        ids.append(row.text(0) ?? "")
        database.tally(from: (MessageStatus(rawValue: row.int(1)), row.int(2) != 0, row.int(3) != 0), to: nil)
      }
      for id in ids { try MessageTags.remove(database, id: id) }
      try database.run("DELETE FROM messages WHERE expires_at IS NOT NULL AND expires_at <= ?", [.int(now)])
      return ids
    }
  }

  /// Inserts or replaces a message's row, keeping its local change times; `onlyRaise` keeps the
  /// higher of the stored and the given statuses (statuses never go down), otherwise they are set.
  /// `replacing` false says the row is known absent: it is then inserted alone (`insertSQL`).
  static func upsertRow(
    _ database: Database, _ message: InboxMessage, payload: String? = nil, pinned: Bool, serverStatus: MessageStatus,
    status: MessageStatus,
    onlyRaise: Bool, replacing: Bool = true
  ) throws {
    let tags = CustomDataFilter.tags(of: message.customData)
    try database.run(
      !replacing ? insertSQL : onlyRaise ? upsertRaisingSQL : upsertSettingSQL,
      [
        .text(message.id), .text(payload ?? message.raw.jsonString), .int(message.ingestedAt),
        .text(message.source.rawValue),
        message.order.sql, message.hash.sql, .int(pinned ? 1 : 0), .int(message.sentAt ?? Int64.min),
        message.sentAt.sql, message.expiresAt.sql, .int(serverStatus.rawValue), .int(status.rawValue),
        CustomDataFilter.column(tags).sql,
      ])
    try MessageTags.refresh(database, id: message.id, tags: tags, replacing: replacing)
  }

  // Built once and kept: the statement cache finds each by address, so a sync of 10k rows reuses one.
  private static let upsertRaisingSQL = upsertSQL(
    statuses: "server_status = max(server_status, excluded.server_status), status = max(status, excluded.status)")
  private static let upsertSettingSQL = upsertSQL(
    statuses: "server_status = excluded.server_status, status = excluded.status")

  /// A new row. A statement that runs triggers (the journal's) and may fail halfway keeps a
  /// statement journal, a copy of every page it touches, to undo only itself: a sync paid it for
  /// each of its rows, half of what journalling cost. `OR ROLLBACK` needs none (a failure ends the
  /// whole transaction, which the write rolls back anyway); an upsert cannot say it (its update
  /// part always aborts the statement alone), so a row known absent is inserted by this.
  private static let insertSQL = SQL(once: "INSERT OR ROLLBACK INTO \(columnsAndValues)")

  private static let columnsAndValues = """
    messages (id, payload, ingested_at, source, order_code, hash, pinned, sort_time, sent_at,
      expires_at, server_status, status, tags)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  private static func upsertSQL(statuses: String) -> SQL {
    SQL(
      once: """
        INSERT INTO \(columnsAndValues)
        ON CONFLICT(id) DO UPDATE SET payload = excluded.payload, ingested_at = excluded.ingested_at,
          source = excluded.source, order_code = coalesce(excluded.order_code, order_code),
          hash = coalesce(excluded.hash, hash), pinned = excluded.pinned, sort_time = excluded.sort_time,
          sent_at = excluded.sent_at, expires_at = excluded.expires_at, tags = excluded.tags, \(statuses)
        """)
  }

  private static let rowSQL = SQL(once: "SELECT \(StoredMessage.columns) FROM messages WHERE id = ?")

  static func row(_ database: Database, id: String) throws -> StoredMessage? {
    var found: StoredMessage?
    try database.query(rowSQL, [.text(id)]) {
      found = StoredMessage(row: $0)
    }
    return found
  }
}

extension InboxStore {
  /// True when the store has never held a message (dismissed ones still count as held).
  public func isEmpty() throws -> Bool {
    try read { try $0.scalar("SELECT count(*) FROM messages") ?? 0 } == 0
  }
}
