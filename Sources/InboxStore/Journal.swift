/// The store's journal of feed changes (`journal`, schema version 9), read by `feed.changes`: a
/// host that was not running resumes from its cursor instead of listing the feed again.
///
/// Written by triggers in the file itself, so every writer of the store, in any process, journals
/// each change in the transaction that makes it: a cursor is a row number, and rows are numbered
/// in commit order. Unlike the change log (`ChangeLog`), which lives only while processes follow
/// one another, the journal is written whether or not anyone listens, because its reader may be a
/// script that runs tomorrow.
///
/// It keeps the last `kept` changes: every 1,024th row drops the rows `kept` behind it, in the
/// commit that writes it. A cursor older than the oldest row kept is refused (`JournalError`), and
/// the host lists the feed again. Why a count and not an age: a count bounds the file (about 40
/// bytes a row, 3 MB at most) whatever the rate of change, and a script stopped for a week over a
/// quiet inbox still resumes; 65,536 rows hold six full syncs of a 10,000-message feed.
public enum Journal {
  /// How many of the latest changes the journal keeps (it holds between this and 1,023 more).
  public static let kept: Int64 = 65_536

  /// Version 9: the journal, and the seen mark (`messages.seen_at`) with the `unseen` counts kept
  /// beside the others (`feed_counts`, and `tag_counts` through `message_tags.seen`). Existing
  /// rows start unseen when unread. The tag counts' triggers are made again to count `unseen`.
  static let migration = """
    ALTER TABLE messages ADD COLUMN seen_at INTEGER;
    ALTER TABLE feed_counts ADD COLUMN unseen INTEGER NOT NULL DEFAULT 0;
    UPDATE feed_counts SET unseen = unread;
    ALTER TABLE message_tags ADD COLUMN seen INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tag_counts ADD COLUMN unseen INTEGER NOT NULL DEFAULT 0;
    UPDATE tag_counts SET unseen = unread;
    DROP TRIGGER tag_counts_add; DROP TRIGGER tag_counts_remove; DROP TRIGGER tag_counts_status;
    CREATE TRIGGER tag_counts_add AFTER INSERT ON message_tags
    BEGIN
      INSERT INTO tag_counts (key, value, total, unread, unactioned, pinned, unseen)
        VALUES (NEW.key, NEW.value, NEW.status < 4, NEW.status < 2, NEW.status < 3, NEW.pinned * (NEW.status < 4),
          NEW.status < 2 AND NOT NEW.seen)
        ON CONFLICT (key, value) DO UPDATE SET total = total + excluded.total, unread = unread + excluded.unread,
          unactioned = unactioned + excluded.unactioned, pinned = pinned + excluded.pinned,
          unseen = unseen + excluded.unseen;
    END;
    CREATE TRIGGER tag_counts_remove AFTER DELETE ON message_tags
    BEGIN
      UPDATE tag_counts SET total = total - (OLD.status < 4), unread = unread - (OLD.status < 2),
        unactioned = unactioned - (OLD.status < 3), pinned = pinned - OLD.pinned * (OLD.status < 4),
        unseen = unseen - (OLD.status < 2 AND NOT OLD.seen)
        WHERE key = OLD.key AND value = OLD.value;
    END;
    CREATE TRIGGER tag_counts_status AFTER UPDATE OF status, seen ON message_tags
      WHEN OLD.status IS NOT NEW.status OR OLD.seen IS NOT NEW.seen
    BEGIN
      UPDATE tag_counts SET total = total - (OLD.status < 4) + (NEW.status < 4),
        unread = unread - (OLD.status < 2) + (NEW.status < 2),
        unactioned = unactioned - (OLD.status < 3) + (NEW.status < 3),
        pinned = pinned + NEW.pinned * ((NEW.status < 4) - (OLD.status < 4)),
        unseen = unseen - (OLD.status < 2 AND NOT OLD.seen) + (NEW.status < 2 AND NOT NEW.seen)
        WHERE key = NEW.key AND value = NEW.value;
    END;
    CREATE TABLE journal (
      seq INTEGER PRIMARY KEY,
      message_id TEXT NOT NULL,
      -- 1 added to the feed, 2 updated in it, 3 removed from it (dismissed, expired and purged, deleted).
      change INTEGER NOT NULL,
      -- What an update changed, one bit each (`JournalEntry.Field`).
      fields INTEGER NOT NULL
    );
    CREATE TRIGGER journal_insert AFTER INSERT ON messages WHEN NEW.status < 4
    BEGIN
      INSERT INTO journal (message_id, change, fields) VALUES (NEW.id, 1, 0);
    END;
    CREATE TRIGGER journal_update AFTER UPDATE ON messages
      WHEN (OLD.status < 4 OR NEW.status < 4) AND (OLD.status IS NOT NEW.status OR OLD.payload IS NOT NEW.payload
        OR OLD.ingested_at IS NOT NEW.ingested_at OR OLD.pinned IS NOT NEW.pinned
        OR OLD.sort_time IS NOT NEW.sort_time OR OLD.expires_at IS NOT NEW.expires_at
        OR OLD.seen_at IS NOT NEW.seen_at)
    BEGIN
      INSERT INTO journal (message_id, change, fields) VALUES (NEW.id,
        CASE WHEN OLD.status >= 4 THEN 1 WHEN NEW.status >= 4 THEN 3 ELSE 2 END,
        (OLD.status IS NOT NEW.status) + 2 * (OLD.payload IS NOT NEW.payload OR OLD.ingested_at IS NOT NEW.ingested_at)
          + 4 * (OLD.pinned IS NOT NEW.pinned) + 8 * (OLD.sort_time IS NOT NEW.sort_time)
          + 16 * (OLD.expires_at IS NOT NEW.expires_at) + 32 * (OLD.seen_at IS NOT NEW.seen_at));
    END;
    CREATE TRIGGER journal_delete AFTER DELETE ON messages WHEN OLD.status < 4
    BEGIN
      INSERT INTO journal (message_id, change, fields) VALUES (OLD.id, 3, 0);
    END;
    CREATE TRIGGER journal_prune AFTER INSERT ON journal WHEN NEW.seq % 1024 = 0
    BEGIN
      DELETE FROM journal WHERE seq <= NEW.seq - \(kept);
    END;
    """

  /// Up to `limit` entries after `since`, oldest first, read in one read transaction. Refused
  /// when rows after `since` were pruned, or `since` is past the last row (a store put back
  /// from a copy): the host lists the feed again.
  static func read(_ database: Database, since: Int64, limit: Int) throws -> JournalPage {
    try database.execute("BEGIN")
    defer { try? database.execute("COMMIT") }
    let last = try tail(database)
    let oldest = try database.scalar("SELECT seq FROM journal ORDER BY seq LIMIT 1") ?? last + 1
    guard since <= last, since >= oldest - 1 else { throw JournalError.tooOld(since: since, oldest: oldest - 1) }
    var entries: [JournalEntry] = []
    try database.query(
      "SELECT seq, message_id, change, fields FROM journal WHERE seq > ? ORDER BY seq LIMIT ?",
      [.int(since), .int(Int64(limit))]
    ) { row in
      entries.append(
        JournalEntry(
          seq: row.int(0), id: row.text(1) ?? "", change: JournalEntry.Change(rawValue: row.int(2)) ?? .updated,
          fields: JournalEntry.Field(rawValue: row.int(3))))
    }
    let through = entries.last?.seq ?? since
    return JournalPage(entries: entries, through: through, more: through < last)
  }

  /// The last row's number, 0 for none: a cursor there reports only later changes.
  static func tail(_ database: Database) throws -> Int64 {
    try database.scalar("SELECT seq FROM journal ORDER BY seq DESC LIMIT 1") ?? 0
  }
}

/// One journalled change to one message.
public struct JournalEntry: Sendable, Hashable {
  public enum Change: Int64, Sendable {
    case added = 1, updated, removed
  }

  /// What an update changed, by the card members it shows in.
  public struct Field: OptionSet, Sendable, Hashable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// `read` and `actionPerformed` (the status).
    public static let status = Field(rawValue: 1)
    /// The payload: title, body, image, buttons, kind, custom data.
    public static let content = Field(rawValue: 2)
    public static let pinned = Field(rawValue: 4)
    /// `sentAt`, the feed order.
    public static let sentAt = Field(rawValue: 8)
    public static let expiresAt = Field(rawValue: 16)
    public static let seen = Field(rawValue: 32)

    /// Each field set, by its wire name, in a fixed order.
    public var names: [String] {
      let all: [(Field, String)] = [
        (.status, "status"), (.content, "content"), (.pinned, "pinned"), (.sentAt, "sentAt"),
        (.expiresAt, "expiresAt"), (.seen, "seen"),
      ]
      return all.filter { contains($0.0) }.map(\.1)
    }
  }

  /// The change's number: a cursor at it resumes after it.
  public var seq: Int64
  public var id: String
  public var change: Change
  public var fields: Field
}

/// A read of the journal: its entries, the number to resume after, and whether more follow.
public struct JournalPage: Sendable, Hashable {
  public var entries: [JournalEntry]
  public var through: Int64
  public var more: Bool

  public init(entries: [JournalEntry], through: Int64, more: Bool) {
    self.entries = entries
    self.through = through
    self.more = more
  }
}

/// A cursor the journal cannot resume from: rows after it were pruned, or it is past the last.
public enum JournalError: Error, Hashable {
  /// `oldest` is the oldest cursor still served.
  case tooOld(since: Int64, oldest: Int64)
}

extension InboxStore {
  /// Where the journal stands: a cursor there reports only changes committed after this call.
  public func journalTail() throws -> Int64 { try read { try Journal.tail($0) } }

  /// Up to `limit` journalled changes after `since`, oldest first.
  public func journal(since: Int64, limit: Int) throws -> JournalPage {
    try read { try Journal.read($0, since: since, limit: limit) }
  }
}
