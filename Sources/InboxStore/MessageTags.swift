import InboxCore
import JSON

/// The store's side of `CustomDataFilter`: the tag index (`message_tags`, schema version 7) kept
/// beside every write of a message, the SQL that reads it, and the one-time tagging of rows stored
/// before it. Kept by the writes themselves, not by triggers on `messages`: a trigger runs its
/// program for every row a statement writes, tagged or not, which made a sync's inserts three
/// times slower; here an untagged row costs one key seek that finds nothing.
enum MessageTags {
  /// Rewrites message `id`'s tag rows from its row as it now stands (after an insert or upsert).
  static func refresh(_ database: Database, id: String, tagged: Bool) throws {
    try database.run("DELETE FROM message_tags WHERE message_id = ?", [.text(id)])
    guard tagged else { return }
    try database.run(
      """
      INSERT INTO message_tags (message_id, key, value, pinned, sort_time, status, expires_at)
        SELECT m.id, j.key, j.value, m.pinned, m.sort_time, m.status, m.expires_at
        FROM messages m, json_each(m.tags) j WHERE m.id = ? AND m.tags IS NOT NULL
      """, [.text(id)])
  }

  /// Gives message `id`'s tag rows its new status (the counts follow, by trigger).
  static func setStatus(_ database: Database, id: String, _ status: Int64) throws {
    try database.run("UPDATE message_tags SET status = ? WHERE message_id = ?", [.int(status), .text(id)])
  }

  /// Removes message `id`'s tag rows, before its row is deleted.
  static func remove(_ database: Database, id: String) throws {
    try database.run("DELETE FROM message_tags WHERE message_id = ?", [.text(id)])
  }

  /// Tags every message in the feed from its stored payload, read again by the engine.
  @Sendable static func backfill(_ database: Database) throws {
    var rows: [(id: String, tags: String)] = []
    try database.query(SQL("SELECT \(StoredMessage.columns) FROM messages WHERE status < 4")) { row in
      let stored = StoredMessage(row: row)
      if let tags = (try? stored.message()).flatMap({ CustomDataFilter.tags(of: $0.customData) }) {
        rows.append((stored.id, tags))
      }
    }
    for row in rows {
      try database.run("UPDATE messages SET tags = ? WHERE id = ?", [.text(row.tags), .text(row.id)])
      try refresh(database, id: row.id, tagged: true)
    }
  }

  /// The condition that keeps rows of `message_tags` aliased `t` matching every term but the
  /// first (the first is the seek's key), with its values.
  static func otherTerms(_ filter: CustomDataFilter) -> (sql: String, values: [SQLValue]) {
    var sql = ""
    var values: [SQLValue] = []
    for term in filter.terms.dropFirst() {
      sql +=
        " AND EXISTS (SELECT 1 FROM message_tags o WHERE o.message_id = t.message_id AND o.key = ? AND o.value = ?)"
      values += [.text(term.key), .text(term.value)]
    }
    return (sql, values)
  }
}
