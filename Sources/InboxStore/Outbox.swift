import InboxCore

/// One status change the backend has not confirmed yet.
public struct OutboxEntry: Sendable, Hashable {
  public var seq: Int64
  public var messageID: String
  public var status: MessageStatus
  /// The message's backend `order`, sent as `inbox_code`; nil until a sync gives a push-only message one.
  public var order: String?
  public var hash: String?
  public var queuedAt: Int64
  public var attempts: Int
  public var nextAttemptAt: Int64
  public var lastError: String?
  /// The backend account the change was made under: empty for the account in force, otherwise what
  /// `retireOutbox(as:)` recorded when the application or user id changed.
  public var account: String

  public init(
    seq: Int64, messageID: String, status: MessageStatus, order: String? = nil, hash: String? = nil,
    queuedAt: Int64 = 0, attempts: Int = 0, nextAttemptAt: Int64 = 0, lastError: String? = nil, account: String = ""
  ) {
    self.seq = seq
    self.messageID = messageID
    self.status = status
    self.order = order
    self.hash = hash
    self.queuedAt = queuedAt
    self.attempts = attempts
    self.nextAttemptAt = nextAttemptAt
    self.lastError = lastError
    self.account = account
  }

  /// Whether it can be sent at all: it has the backend `order` to send as `inbox_code`.
  public var isSendable: Bool { order != nil }
}

/// The outbox table: queued with each local change, removed when the backend confirms, or when
/// the change can never be sent (no `order`, and none can come: see `retireAccount`, `Merge`).
enum Outbox {
  static func enqueue(
    _ database: Database, messageID: String, status: MessageStatus, order: String?, hash: String?, now: Int64
  ) throws {
    try database.run(
      """
      INSERT INTO outbox (message_id, status, order_code, hash, queued_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(account, message_id, status) DO NOTHING
      """, [.text(messageID), .int(status.rawValue), order.sql, hash.sql, .int(now)])
  }

  static let columns =
    "seq, message_id, status, order_code, hash, queued_at, attempts, next_attempt_at, last_error, account"

  static func entry(_ row: Statement) -> OutboxEntry {
    OutboxEntry(
      seq: row.int(0), messageID: row.text(1) ?? "", status: MessageStatus(rawValue: row.int(2)), order: row.text(3),
      hash: row.text(4), queuedAt: row.int(5), attempts: Int(row.int(6)), nextAttemptAt: row.int(7),
      lastError: row.text(8), account: row.text(9) ?? "")
  }
}

extension InboxStore {
  /// Every queued change, oldest first.
  public func outbox() throws -> [OutboxEntry] {
    try read { database in
      var entries: [OutboxEntry] = []
      try database.query(SQL("SELECT \(Outbox.columns) FROM outbox ORDER BY seq")) { entries.append(Outbox.entry($0)) }
      return entries
    }
  }

  /// Changes that can be sent now: they have an `order`, and their retry time has come (pass
  /// `Int64.max` to ignore retry times). Every account's, oldest first.
  public func sendableOutbox(now: Int64, limit: Int = 500) throws -> [OutboxEntry] {
    try read { database in
      var entries: [OutboxEntry] = []
      try database.query(
        SQL(
          "SELECT \(Outbox.columns) FROM outbox WHERE order_code IS NOT NULL AND next_attempt_at <= ? ORDER BY seq LIMIT ?"
        ),
        [.int(now), .int(Int64(limit))]
      ) { entries.append(Outbox.entry($0)) }
      return entries
    }
  }

  /// The backend confirmed the change: it leaves the outbox.
  public func confirm(_ entry: OutboxEntry) throws {
    try write { try $0.run("DELETE FROM outbox WHERE seq = ?", [.int(entry.seq)]) }
  }

  /// Sending failed: try again at `retryAt`, remembering why.
  public func postpone(_ entry: OutboxEntry, until retryAt: Int64, error: String) throws {
    try write {
      try $0.run(
        "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE seq = ?",
        [.int(retryAt), .text(error), .int(entry.seq)])
    }
  }

  /// How many changes wait for the backend.
  public func pendingCount() throws -> Int {
    Int(try read { try $0.scalar("SELECT count(*) FROM outbox") } ?? 0)
  }
}
