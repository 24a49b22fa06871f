import InboxStore

extension Inbox {
  /// Up to `limit` changes the store journalled after `since` (a `JournalCursor` token), oldest
  /// first, with the cursor to resume from; without `since`, none and the cursor of now (take it,
  /// then list the feed: a change made between is told again, never missed). A cursor of another
  /// store, or older than the journal keeps, throws `JournalError.tooOld`.
  public func changes(since token: String?, limit: Int) throws -> (page: JournalPage, cursor: String) {
    let page: JournalPage
    if let token {
      let cursor: JournalCursor
      do { cursor = try JournalCursor(token: token) } catch {
        throw InboxError.invalidArgument(argument: "since", reason: error.reason)
      }
      guard cursor.storeID == store.storeID else { throw JournalError.tooOld(since: cursor.seq, oldest: -1) }
      page = try store.journal(since: cursor.seq, limit: limit)
    } else {
      page = JournalPage(entries: [], through: try store.journalTail(), more: false)
    }
    return (page, cursor(page.through))
  }

  /// The token of the journal position `seq` in this store.
  public func cursor(_ seq: Int64) -> String { JournalCursor(storeID: store.storeID, seq: seq).token }
}
