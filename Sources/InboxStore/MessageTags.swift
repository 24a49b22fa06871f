import InboxCore
import JSON

/// The store's side of `CustomDataFilter`: the SQL that reads the tag index (`message_tags`,
/// schema version 7) and the one-time tagging of rows stored before it.
enum MessageTags {
  /// Tags every message in the feed from its stored payload, read again by the engine.
  @Sendable static func backfill(_ database: Database) throws {
    var rows: [(id: String, tags: String)] = []
    try database.query(SQL("SELECT \(StoredMessage.columns) FROM messages WHERE status < 4")) { row in
      let stored = StoredMessage(row: row)
      if let tags = (try? stored.message()).flatMap({ CustomDataFilter.tags(of: $0.customData) }) {
        rows.append((stored.id, tags))
      }
    }
    for row in rows { try database.run("UPDATE messages SET tags = ? WHERE id = ?", [.text(row.tags), .text(row.id)]) }
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
