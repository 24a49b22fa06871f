import InboxCore
import JSON

/// The store's side of `CustomDataFilter`: the tag index (`message_tags`, schema version 7) kept
/// beside every write of a message, the SQL that reads it, and the one-time tagging of rows stored
/// before it. Kept by the writes themselves, not by triggers on `messages`: a trigger runs its
/// program for every row a statement writes, tagged or not, which made a sync's inserts three
/// times slower; here an untagged row costs one key seek that finds nothing.
enum MessageTags {
  /// Writes message `id`'s tag rows from `tags`, with the pin, order, status and expiry of its row
  /// as it now stands (after an insert or upsert). `replacing`: the row may have had tags before.
  /// One statement per tag, with the key and value bound: reading them back out of `messages.tags`
  /// with `json_each` opened a virtual table per message, a third of a sync's instructions.
  /// `beforeSeen`: at schema version 7, whose rows have no seen mark yet.
  static func refresh(
    _ database: Database, id: String, tags: [(key: String, value: String)], replacing: Bool = true,
    beforeSeen: Bool = false
  ) throws {
    if replacing { try remove(database, id: id) }
    for tag in tags {
      try database.run(beforeSeen ? insertBeforeSeenSQL : insertSQL, [.text(id), .text(tag.key), .text(tag.value)])
    }
  }

  private static let insertBeforeSeenSQL = SQL(
    once: """
      INSERT INTO message_tags (message_id, key, value, pinned, sort_time, status, expires_at)
        SELECT id, ?2, ?3, pinned, sort_time, status, expires_at FROM messages WHERE id = ?1
      """)

  private static let insertSQL = SQL(
    once: """
      INSERT INTO message_tags (message_id, key, value, pinned, sort_time, status, expires_at, seen)
        SELECT id, ?2, ?3, pinned, sort_time, status, expires_at, seen_at IS NOT NULL FROM messages WHERE id = ?1
      """)

  /// Gives message `id`'s tag rows its new status (the counts follow, by trigger).
  static func setStatus(_ database: Database, id: String, _ status: Int64) throws {
    try database.run("UPDATE message_tags SET status = ? WHERE message_id = ?", [.int(status), .text(id)])
  }

  /// Marks message `id`'s tag rows seen (the counts follow, by trigger).
  static func setSeen(_ database: Database, id: String) throws {
    try database.run("UPDATE message_tags SET seen = 1 WHERE message_id = ?", [.text(id)])
  }

  /// Removes message `id`'s tag rows, before its row is deleted.
  static func remove(_ database: Database, id: String) throws {
    try database.run("DELETE FROM message_tags WHERE message_id = ?", [.text(id)])
  }

  /// Tags every message in the feed from its stored payload, read again by the engine.
  @Sendable static func backfill(_ database: Database) throws {
    var rows: [(id: String, tags: [(key: String, value: String)])] = []
    // Run at version 7, before `seen_at` exists.
    try database.query(SQL("SELECT \(StoredMessage.columnsBeforeSeen) FROM messages WHERE status < 4")) { row in
      let stored = StoredMessage(row: row)
      let tags = (try? stored.message()).map { CustomDataFilter.tags(of: $0.customData) } ?? []
      if !tags.isEmpty { rows.append((stored.id, tags)) }
    }
    for row in rows {
      try database.run(
        "UPDATE messages SET tags = ? WHERE id = ?", [CustomDataFilter.column(row.tags).sql, .text(row.id)])
      try refresh(database, id: row.id, tags: row.tags, beforeSeen: true)
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
