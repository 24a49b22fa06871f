import InboxCore
import JSON

/// The store's side of a sync: one transaction that reads the local state and writes the merge,
/// so no local change can slip in between what the merge saw and what it wrote.
extension InboxStore {
  /// Runs `body` in one IMMEDIATE transaction under the store's lock; it has committed when this
  /// returns, or rolled back entirely if `body` threw.
  public func syncTransaction<T>(_ body: (SyncTransaction) throws -> T) throws -> T {
    try write { database in try body(SyncTransaction(database: database)) }
  }

  /// Moves every queued change of the account in force to `account` (a description of the old
  /// account), deletes every message, and applies `settings`, in one transaction: what a change of
  /// application or user id does (docs/sync.md#changing-the-account). Changes that never got an `order` cannot be sent
  /// as any account and are dropped. Returns the ids of the messages that were visible, and how many
  /// unsendable changes were dropped.
  public func retireAccount(as account: String, settings: [(String, JSONValue?)], now: Int64) throws -> (
    removed: [String], dropped: Int
  ) {
    try write { database in
      var removed: [String] = []
      try database.query(
        "SELECT id FROM messages WHERE status < 4 AND (expires_at IS NULL OR expires_at > ?) ORDER BY id", [.int(now)]
      ) { removed.append($0.text(0) ?? "") }
      let dropped = try database.run("DELETE FROM outbox WHERE account = '' AND order_code IS NULL")
      try database.run("UPDATE OR IGNORE outbox SET account = ? WHERE account = ''", [.text(account)])
      // A change already queued for that account under the same key stays queued once.
      try database.run("DELETE FROM outbox WHERE account = ''")
      try database.run("DELETE FROM messages")
      try database.run("DELETE FROM message_tags")
      try database.run("DELETE FROM tag_counts")
      try database.run("DELETE FROM wallet_passes")
      try database.run("UPDATE feed_counts SET total = 0, unread = 0, unactioned = 0, pinned = 0, unseen = 0")
      for (key, value) in settings { try Settings.set(database, key, value) }
      return (removed, dropped)
    }
  }

  /// Stores several settings in one transaction.
  public func setSettings(_ settings: [(String, JSONValue?)]) throws {
    try write { database in
      for (key, value) in settings { try Settings.set(database, key, value) }
    }
  }
}

/// The operations a merge needs, valid only inside `InboxStore.syncTransaction`.
///
/// Not `Sendable` and not to be kept: it wraps the connection for the length of one transaction.
public final class SyncTransaction {
  fileprivate let database: Database
  /// The status, pin and seen mark of each row as `messages()` read it and the writes since left
  /// it, so the counts are tallied without reading a row back.
  private var known: [String: TallyState] = [:]
  /// Set once `messages()` read every row: an id not in `known` is then absent.
  private var knowsEveryRow = false

  fileprivate init(database: Database) { self.database = database }

  // MARK: - Reads

  /// Every stored message, dismissed ones (tombstones) included. Without `payloads`, each row's
  /// payload is left empty (read one with `payload(of:)`): a merge compares the payloads of the
  /// listed messages alone, one at a time, rather than hold every stored one.
  public func messages(payloads: Bool = true) throws -> [StoredMessage] {
    var rows: [StoredMessage] = []
    let columns = payloads ? StoredMessage.columns : StoredMessage.columnsWithoutPayload
    try database.query(SQL("SELECT \(columns) FROM messages")) { rows.append(StoredMessage(row: $0)) }
    known.reserveCapacity(rows.count)
    for row in rows { known[row.id] = row.tallyState }
    knowsEveryRow = true
    return rows
  }

  /// The stored payload of message `id`, nil when there is no such row.
  public func payload(of id: String) throws -> String? {
    var payload: String?
    try database.query("SELECT payload FROM messages WHERE id = ?", [.text(id)]) { payload = $0.text(0) }
    return payload
  }

  /// The queued changes of the account in force, oldest first.
  public func pendingOutbox() throws -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    try database.query(SQL("SELECT \(Outbox.columns) FROM outbox WHERE account = '' ORDER BY seq")) {
      entries.append(Outbox.entry($0))
    }
    return entries
  }

  /// Where the store stands: an equal generation read in a later transaction means no row changed
  /// between (here, by the rest of this process or by another one). Read it last: it counts what
  /// this transaction wrote, counts included.
  public func generation() throws -> StoreGeneration {
    try database.flushTally()
    return StoreGeneration(mark: try database.changeMark())
  }

  /// The earliest expiry of a stored message after `now`, nil when none expires later.
  public func nextExpiry(after now: Int64) throws -> Int64? {
    try database.scalar("SELECT min(expires_at) FROM messages WHERE expires_at > ?", [.int(now)])
  }

  /// A setting read inside the transaction.
  public func setting(_ key: String) throws -> JSONValue? { try Settings.get(database, key) }

  /// Stores a setting inside the transaction (nil removes it).
  public func setSetting(_ key: String, _ value: JSONValue?) throws { try Settings.set(database, key, value) }

  // MARK: - Writes

  /// Writes a backend message as the merge decided: its payload, `order` and `hash`, and both
  /// statuses exactly as given (the merge computed them); the local change times are kept. `payload`
  /// is the message's compact text when the caller has it already.
  public func upsert(
    _ message: InboxMessage, payload: String? = nil, status: MessageStatus, serverStatus: MessageStatus
  ) throws {
    let old = try state(of: message.id)
    try InboxStore.upsertRow(
      database, message, payload: payload, pinned: message.isPinned, serverStatus: serverStatus, status: status,
      onlyRaise: false, replacing: old != nil)
    record(message.id, from: old, to: (status, message.isPinned, old?.seen == true))
  }

  /// Updates the statuses (and fills a missing `order`/`hash`) of a message whose payload stays.
  public func setState(
    id: String, status: MessageStatus, serverStatus: MessageStatus, order: String?, hash: String?
  ) throws {
    let old = try state(of: id)
    let changed = try database.run(
      """
      UPDATE messages SET status = ?, server_status = ?, order_code = coalesce(?, order_code),
        hash = coalesce(hash, ?) WHERE id = ?
      """, [.int(status.rawValue), .int(serverStatus.rawValue), order.sql, hash.sql, .text(id)])
    if changed > 0, let old {
      if old.status != status { try MessageTags.setStatus(database, id: id, status.rawValue) }
      record(id, from: old, to: (status, old.pinned, old.seen))
    }
  }

  /// Deletes a message row.
  public func delete(id: String) throws {
    let old = try state(of: id)
    try MessageTags.remove(database, id: id)
    try database.run("DELETE FROM messages WHERE id = ?", [.text(id)])
    record(id, from: old, to: nil)
  }

  /// A row's status, pin and seen mark: as last read or written here, else read from the store.
  private func state(of id: String) throws -> TallyState? {
    if let state = known[id] { return state }
    if knowsEveryRow { return nil }
    return try InboxStore.row(database, id: id)?.tallyState
  }

  private func record(_ id: String, from old: TallyState?, to new: TallyState?) {
    database.tally(from: old, to: new)
    known[id] = new
  }

  /// Queues a status change for the account in force (a re-send); nothing when it is queued already.
  public func enqueue(messageID: String, status: MessageStatus, order: String?, hash: String?, now: Int64) throws {
    try Outbox.enqueue(database, messageID: messageID, status: status, order: order, hash: hash, now: now)
  }

  /// Drops the waiting changes of a message that have no `order` (the service deleted it unlisted).
  public func dropUnsendable(messageID: String) throws {
    try database.run(
      "DELETE FROM outbox WHERE account = '' AND message_id = ? AND order_code IS NULL", [.text(messageID)])
  }

  /// Gives the waiting changes of a message the `order` a sync found (and its `hash` if they had none).
  public func fillOutbox(messageID: String, order: String, hash: String?) throws {
    try database.run(
      "UPDATE outbox SET order_code = ?, hash = coalesce(hash, ?) WHERE account = '' AND message_id = ? AND order_code IS NULL",
      [.text(order), hash.sql, .text(messageID)])
  }
}

@available(*, unavailable, message: "a sync transaction belongs to the thread that holds the store's lock")
extension SyncTransaction: Sendable {}

/// An opaque mark of the store's content, from `SyncTransaction.generation()`.
public struct StoreGeneration: Sendable, Hashable {
  fileprivate let mark: [Int64]
}
