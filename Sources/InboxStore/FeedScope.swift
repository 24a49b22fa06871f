/// The visible messages a read or a bulk change covers, as SQL: the whole feed (`messages`), or
/// the messages a `CustomDataFilter` selects, read from the tag index (`message_tags` aliased `t`,
/// joined to `messages` aliased `m`). Either way the feed-order columns are named by `column(_:)`,
/// so one keyset query serves both.
struct FeedScope {
  let filter: CustomDataFilter?
  let now: Int64

  /// `FROM …`: the table (or join) the rows come from.
  var from: String {
    filter == nil ? "messages" : "message_tags t JOIN messages m ON m.id = t.message_id"
  }

  /// The stored message's columns, read from `messages` whatever the scope.
  var columns: String { filter == nil ? StoredMessage.columns : StoredMessage.joinedColumns }

  /// `column` (`pinned`, `sort_time`, `status`, `id`) as the scope's order index holds it.
  func column(_ name: String) -> String {
    guard filter != nil else { return name }
    return name == "id" ? "t.message_id" : "t." + name
  }

  /// The condition every row meets (visible: not dismissed, not expired; each filter term), and
  /// its values, the first term's key and value leading so the seek is on the tag index.
  var condition: (sql: String, values: [SQLValue]) {
    let visible = "\(column("status")) < 4 AND (\(column("expires_at")) IS NULL OR \(column("expires_at")) > ?)"
    guard let filter, let first = filter.terms.first else { return (visible, [.int(now)]) }
    let others = MessageTags.otherTerms(filter)
    return (
      "t.key = ? AND t.value = ? AND " + visible + others.sql,
      [.text(first.key), .text(first.value), .int(now)] + others.values
    )
  }

  /// `SELECT columns FROM … WHERE condition AND extra`, with the condition's values first.
  func select(_ selected: String, extra: String = "") -> (sql: String, values: [SQLValue]) {
    let condition = self.condition
    return ("SELECT \(selected) FROM \(from) WHERE \(condition.sql)\(extra)", condition.values)
  }
}
