/// One step of the store's schema. Shipped migrations are never edited: a change is a new one.
struct Migration: Sendable {
  /// A stable identifier, recorded in `schema_migrations` when applied.
  let id: String
  let sql: String
  /// Work SQL cannot do, run after `sql` in the same transaction (values only the engine computes).
  var backfill: (@Sendable (Database) throws -> Void)? = nil

  /// Every migration, oldest first; `PRAGMA user_version` is the count applied.
  static let all: [Migration] = [
    Migration(id: "0001-initial", sql: initial),
    Migration(id: "0002-outbox-retry-and-expiry-index", sql: outboxRetry),
    Migration(id: "0003-outbox-account", sql: outboxAccount),
    Migration(id: "0004-feed-counts", sql: feedCounts),
    Migration(id: "0005-outbox-lean", sql: outboxLean),
    Migration(id: "0006-change-log", sql: changeLog),
    Migration(id: "0007-custom-data-tags", sql: customDataTags, backfill: MessageTags.backfill),
    Migration(id: "0008-wallet-passes", sql: walletPasses),
    Migration(id: "0009-journal-and-seen", sql: Journal.migration),
  ]

  /// Version 1: messages with their local state, the outbox, settings.
  private static let initial = """
    CREATE TABLE messages (
      id TEXT PRIMARY KEY,
      -- The payload exactly as received, and the ingest time that reproduces the message from it.
      payload TEXT NOT NULL,
      ingested_at INTEGER NOT NULL,
      source TEXT NOT NULL,
      order_code TEXT,
      hash TEXT,
      -- Feed order: pinned first, newest first (unknown send time = oldest), ties by id.
      pinned INTEGER NOT NULL,
      sort_time INTEGER NOT NULL,
      sent_at INTEGER,
      expires_at INTEGER,
      -- The status the backend last reported, and the effective one: max(server, local).
      server_status INTEGER NOT NULL,
      status INTEGER NOT NULL,
      -- Local state, with the time of each change (unix seconds).
      read_at INTEGER,
      opened_at INTEGER,
      dismissed_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX feed_order ON messages(pinned DESC, sort_time DESC, id) WHERE status < 4;
    CREATE INDEX feed_unread ON messages(pinned DESC, sort_time DESC, id) WHERE status < 2;
    CREATE TABLE outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      message_id TEXT NOT NULL,
      status INTEGER NOT NULL,
      order_code TEXT,
      hash TEXT,
      queued_at INTEGER NOT NULL,
      UNIQUE (message_id, status)
    );
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    """

  /// Version 2: retry bookkeeping for the outbox, and an index that makes expiry purges O(expired).
  private static let outboxRetry = """
    ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN last_error TEXT;
    CREATE INDEX messages_expiry ON messages(expires_at) WHERE expires_at IS NOT NULL;
    CREATE INDEX feed_unread_first ON messages(pinned DESC, (status < 2) DESC, sort_time DESC, id) WHERE status < 4;
    """

  /// Version 3: each queued change names the backend account it belongs to (`''` is the account in
  /// force), so changes made under one application or user id are still sent as that account after a
  /// switch. The unique key gains the account; SQLite cannot alter a constraint, so the table is
  /// rebuilt, keeping every row and its `seq`.
  private static let outboxAccount = """
    CREATE TABLE outbox_v3 (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      account TEXT NOT NULL DEFAULT '',
      message_id TEXT NOT NULL,
      status INTEGER NOT NULL,
      order_code TEXT,
      hash TEXT,
      queued_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      UNIQUE (account, message_id, status)
    );
    INSERT INTO outbox_v3 (seq, message_id, status, order_code, hash, queued_at, attempts, next_attempt_at, last_error)
      SELECT seq, message_id, status, order_code, hash, queued_at, attempts, next_attempt_at, last_error FROM outbox;
    DROP TABLE outbox;
    ALTER TABLE outbox_v3 RENAME TO outbox;
    CREATE INDEX outbox_message ON outbox(message_id);
    """

  /// Version 4: the counts of messages not dismissed, in one row, so `feed.counts` reads it instead
  /// of counting the table. Every change adds what it did to the row in its own transaction (see
  /// `CountsTally`); expired messages not yet purged are subtracted at read time (O(expired)).
  private static let feedCounts = """
    CREATE TABLE feed_counts (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      total INTEGER NOT NULL, unread INTEGER NOT NULL, unactioned INTEGER NOT NULL, pinned INTEGER NOT NULL
    );
    INSERT INTO feed_counts
      SELECT 1, count(*), coalesce(sum(status < 2), 0), coalesce(sum(status < 3), 0), coalesce(sum(pinned), 0)
      FROM messages WHERE status < 4;
    """

  /// Version 5: a queued change writes one index fewer. `outbox_message` duplicated what the unique
  /// key serves: every lookup by message names the account too. (`AUTOINCREMENT` stays: a change's
  /// `seq` must never come back, or a sync confirming a change that left the outbox meanwhile would
  /// delete the newer change that took its number.)
  private static let outboxLean = """
    DROP INDEX outbox_message;
    """

  /// Version 6: the log other processes on the store read to tell what changed (`ChangeLog`): one
  /// row per message whose visible state a commit changed, numbered in commit order. Only the
  /// table and its pruning live in the file; the rows are written by triggers each writing
  /// connection creates for itself (TEMP), so they name that connection. An existing store gains an
  /// empty log: nothing already in it is reported. Every 1,024th row drops rows 8,192 behind it, so
  /// the log stays small whether or not anyone reads it. No `AUTOINCREMENT`: rows leave only from
  /// the oldest end, so the newest keeps the largest number and none comes back, and a write does
  /// not also rewrite `sqlite_sequence`.
  private static let changeLog = """
    CREATE TABLE change_log (
      seq INTEGER PRIMARY KEY,
      message_id TEXT NOT NULL,
      -- Whether the message was in the feed (not dismissed) before and after the change.
      was_visible INTEGER NOT NULL,
      is_visible INTEGER NOT NULL,
      -- The writing connection's random number (`ChangeLog.origin`).
      origin INTEGER NOT NULL
    );
    CREATE TRIGGER change_log_prune AFTER INSERT ON change_log WHEN NEW.seq % 1024 = 0
    BEGIN
      DELETE FROM change_log WHERE seq <= NEW.seq - 8192;
    END;
    """

  /// Version 7: the custom data a filter names (`CustomDataFilter`). `messages.tags` keeps each
  /// scalar top-level key of the message's normalised `u` (the engine's reading: an object or a
  /// JSON string, else `userdata`) with its canonical value text; one `message_tags` row per key
  /// beside it carries the message's feed-order key and status (kept by the store's writes,
  /// `MessageTags`: a trigger on `messages` would run for every row a sync writes, tagged or not,
  /// and made a 100k insert three times slower), so a filtered page is a keyset seek of
  /// `tag_order` (or `tag_unread_first`) as an unfiltered one is of `feed_order`; triggers on
  /// `message_tags` keep each key and value's counts in `tag_counts` as `feed_counts` is kept. A
  /// benchmark (bench/tabs.py) chose this over a scan of a stored column: a scan costs what the
  /// rows before the page's last match cost, so a rare tab on a large store reads the whole store.
  /// Existing rows are tagged once, here (`MessageTags.backfill`).
  private static let customDataTags = """
    ALTER TABLE messages ADD COLUMN tags TEXT;
    CREATE TABLE message_tags (
      message_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      pinned INTEGER NOT NULL,
      sort_time INTEGER NOT NULL,
      status INTEGER NOT NULL,
      expires_at INTEGER,
      PRIMARY KEY (message_id, key)
    ) WITHOUT ROWID;
    CREATE INDEX tag_order ON message_tags(key, value, pinned DESC, sort_time DESC, message_id) WHERE status < 4;
    CREATE INDEX tag_unread_first
      ON message_tags(key, value, pinned DESC, (status < 2) DESC, sort_time DESC, message_id) WHERE status < 4;
    CREATE TABLE tag_counts (
      key TEXT NOT NULL, value TEXT NOT NULL,
      total INTEGER NOT NULL, unread INTEGER NOT NULL, unactioned INTEGER NOT NULL, pinned INTEGER NOT NULL,
      PRIMARY KEY (key, value)
    ) WITHOUT ROWID;
    CREATE TRIGGER tag_counts_add AFTER INSERT ON message_tags
    BEGIN
      INSERT INTO tag_counts (key, value, total, unread, unactioned, pinned)
        VALUES (NEW.key, NEW.value, NEW.status < 4, NEW.status < 2, NEW.status < 3, NEW.pinned * (NEW.status < 4))
        ON CONFLICT (key, value) DO UPDATE SET total = total + excluded.total, unread = unread + excluded.unread,
          unactioned = unactioned + excluded.unactioned, pinned = pinned + excluded.pinned;
    END;
    CREATE TRIGGER tag_counts_remove AFTER DELETE ON message_tags
    BEGIN
      UPDATE tag_counts SET total = total - (OLD.status < 4), unread = unread - (OLD.status < 2),
        unactioned = unactioned - (OLD.status < 3), pinned = pinned - OLD.pinned * (OLD.status < 4)
        WHERE key = OLD.key AND value = OLD.value;
    END;
    CREATE TRIGGER tag_counts_status AFTER UPDATE OF status ON message_tags WHEN OLD.status IS NOT NEW.status
    BEGIN
      UPDATE tag_counts SET total = total - (OLD.status < 4) + (NEW.status < 4),
        unread = unread - (OLD.status < 2) + (NEW.status < 2),
        unactioned = unactioned - (OLD.status < 3) + (NEW.status < 3),
        pinned = pinned + NEW.pinned * ((NEW.status < 4) - (OLD.status < 4))
        WHERE key = NEW.key AND value = NEW.value;
    END;
    """

  /// Version 8: what the host reported of each message's Apple Wallet sheet (`WalletRecord`): the
  /// pass added, or adding it failed and why. A cancelled sheet is reported by no call and leaves
  /// no row. A table of its own rather than columns on `messages`: a sync rewrites message rows,
  /// and what the user did with the pass is not the backend's.
  private static let walletPasses = """
    CREATE TABLE wallet_passes (
      message_id TEXT PRIMARY KEY,
      outcome TEXT NOT NULL,
      reason TEXT,
      reported_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    """
}
