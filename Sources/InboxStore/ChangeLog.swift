import Synchronization

/// The store's log of feed changes (`change_log`, schema version 6), from which a process tells
/// what other processes committed without reading the feed again.
///
/// Each writing connection has TEMP triggers on `messages`, stamping every row with its
/// own random `origin`: a reader skips the rows its own process wrote, which it reported when it
/// wrote them. A row says whether the message was in the feed (not dismissed) before and after;
/// rows that change nothing a card shows are not written. Nor is any row while no other process
/// has the store open (`followed`, set by each transaction once it holds the write lock), and while
/// none has, the triggers are not there at all (`setTriggers`): SQLite runs an AFTER trigger's
/// program for every row a statement changes even when its WHEN is false, so a lone server's
/// writes cost what they cost before only without them. One that opens later waits, once it holds its
/// presence lock, for the write lock to be free, so it reads where the log stands
/// (`InboxStore.changeLogTail`) after any write that did not see it.
///
/// The log is in the file, so another program can write it too (the `sqlite3` shell). Its rows are
/// never trusted past what they can show: numbers from `ceiling` up are ignored by readers and
/// writers alike (a row planted at the largest number would otherwise make SQLite number later
/// rows at random, below where readers look), a gap between two rows read says rows are missing
/// (a note without ids, as after pruning), and an id is reported only as the messages table shows
/// it now (a row naming a message that is not there adds nothing).
enum ChangeLog {
  /// Rows numbered from here up are not the log's: 2^53, never reached by one row per change.
  static let ceiling: Int64 = 1 << 53
  /// Defines the function this connection's triggers ask whether they should write.
  static func install(_ database: Database, followed: SQLFlag) throws(StoreError) {
    try database.define("inbox_followed", answering: followed)
  }

  /// Creates (`on`) or drops this connection's triggers, inside the transaction that found another
  /// process present or gone, so a rollback undoes the change with the rest.
  static func setTriggers(_ on: Bool, on database: Database, origin: Int64) throws(StoreError) {
    guard on else {
      try database.execute(
        """
        DROP TRIGGER IF EXISTS temp.change_log_insert; DROP TRIGGER IF EXISTS temp.change_log_update;
        DROP TRIGGER IF EXISTS temp.change_log_delete;
        """)
      return
    }
    // Numbered here, after the last row under the ceiling, not by SQLite (see `ceiling`).
    let insert =
      "INSERT INTO change_log (seq, message_id, was_visible, is_visible, origin) VALUES ((SELECT coalesce(("
      + "SELECT seq FROM change_log WHERE seq < \(ceiling) ORDER BY seq DESC LIMIT 1), 0) + 1),"
    try database.execute(
      """
      CREATE TEMP TRIGGER IF NOT EXISTS change_log_insert AFTER INSERT ON main.messages
        WHEN inbox_followed() AND NEW.status < 4
      BEGIN \(insert) NEW.id, 0, 1, \(origin)); END;
      CREATE TEMP TRIGGER IF NOT EXISTS change_log_update AFTER UPDATE ON main.messages
        WHEN inbox_followed() AND (OLD.status < 4 OR NEW.status < 4) AND (OLD.status IS NOT NEW.status
          OR OLD.payload IS NOT NEW.payload OR OLD.ingested_at IS NOT NEW.ingested_at
          OR OLD.pinned IS NOT NEW.pinned OR OLD.sort_time IS NOT NEW.sort_time
          OR OLD.expires_at IS NOT NEW.expires_at)
      BEGIN \(insert) NEW.id, OLD.status < 4, NEW.status < 4, \(origin)); END;
      CREATE TEMP TRIGGER IF NOT EXISTS change_log_delete AFTER DELETE ON main.messages
        WHEN inbox_followed() AND OLD.status < 4
      BEGIN \(insert) OLD.id, 1, 0, \(origin)); END;
      """)
  }

  /// The last number given to a row (0 for none): reading after it reports only later commits.
  static func tail(_ database: Database) throws -> Int64 {
    // `ceiling`, spelt out: a literal is the statement cache's cheapest key.
    try database.scalar("SELECT seq FROM change_log WHERE seq < 9007199254740992 ORDER BY seq DESC LIMIT 1") ?? 0
  }

  /// Most rows one read lists by id: past them (or past a gap) the changes are told as incomplete.
  static let readLimit = 10_000

  /// What rows after `after` not written by `origin` say, each message once: added when it was not
  /// in the feed before its first row and is now, removed for the opposite, updated when it is in
  /// the feed at both ends. Incomplete, with no ids, when rows were pruned before they were read
  /// or are missing between two read. Runs in one read transaction, so the rows and the messages
  /// they are checked against are of one commit.
  static func read(_ database: Database, after: Int64, origin: Int64) throws -> StoreChanges {
    try database.execute("BEGIN")
    defer { try? database.execute("COMMIT") }
    let through = try tail(database)
    guard through > after else { return StoreChanges(through: max(through, after)) }
    var previous = after
    // Each message once, with whether it was in the feed before its first row.
    var first: [(id: String, was: Bool)] = []
    var named: Set<String> = []
    var incomplete = false
    try database.query(
      "SELECT seq, message_id, was_visible, origin FROM change_log WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
      [.int(after), .int(through), .int(Int64(readLimit))]
    ) { row in
      let seq = row.int(0)
      defer { previous = seq }
      guard !incomplete else { return }
      if seq != previous + 1 { return incomplete = true }
      guard row.int(3) != origin, let id = row.text(1), named.insert(id).inserted else { return }
      first.append((id, row.int(2) != 0))
    }
    guard !incomplete, previous == through else { return StoreChanges(through: through, incomplete: true) }
    var changes = StoreChanges(through: through)
    for (id, was) in first {
      let now = try database.scalar("SELECT status < 4 FROM messages WHERE id = ?", [.text(id)]) == 1
      switch (was, now) {
      case (false, true): changes.added.append(id)
      case (true, true): changes.updated.append(id)
      case (true, false): changes.removed.append(id)
      case (false, false): break
      }
    }
    return changes
  }
}

/// What other processes changed in the feed since a given point of the change log.
public struct StoreChanges: Sendable, Equatable {
  public var added: [String] = []
  public var updated: [String] = []
  public var removed: [String] = []
  /// The last row read: the next read starts after it.
  public var through: Int64
  /// Rows were pruned before they were read: the feed may have changed in ways not listed.
  public var incomplete: Bool

  public init(through: Int64, incomplete: Bool = false) {
    self.through = through
    self.incomplete = incomplete
  }

  /// True when nothing is listed and nothing was missed.
  public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty && !incomplete }
}

/// A switch a connection's SQL reads through a function (`Database.define`).
final class SQLFlag: Sendable {
  private let on = Atomic<Bool>(false)
  var isOn: Bool { on.load(ordering: .relaxed) }
  func set(_ value: Bool) { on.store(value, ordering: .relaxed) }
}

extension InboxStore {
  /// Where the change log stands: `changes(after:)` from it reports commits made after this call.
  /// Every write begun before this store was open has committed by now (the open waited for it),
  /// and every later one knows it is followed.
  public func changeLogTail() throws -> Int64 { try read { try ChangeLog.tail($0) } }

  /// The feed changes other processes committed after `after`, or nil when no connection has
  /// committed anything since the last call that read through the same reading connection
  /// (SQLite's `data_version`, which only that connection's own earlier values may be compared with;
  /// a call through another connection looked later, and saw what this one would have).
  public func changes(after: Int64) throws -> StoreChanges? {
    try read { database in
      let version = try database.scalar("PRAGMA data_version") ?? 0
      guard database.dataVersionSeen != version else { return nil }
      let changes = try ChangeLog.read(database, after: after, origin: changeOrigin)
      database.dataVersionSeen = version
      return changes
    }
  }
}
