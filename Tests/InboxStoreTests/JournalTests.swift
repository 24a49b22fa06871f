import InboxCore
import Testing

@testable import InboxStore

/// The journal `feed.changes` reads: every change, in commit order, with what an update changed,
/// kept for the latest `Journal.kept` changes and refused past them.
struct JournalTests {
  let now: Int64 = 1_800_000_000

  @Test func tellsAddedUpdatedAndRemovedInCommitOrder() throws {
    let temp = try TemporaryStore()
    let store = temp.store
    try store.add(backendMessage("a", sentAt: 1))
    let start = try store.journalTail()
    try store.add(backendMessage("b", sentAt: 2))
    _ = try store.markSeen(ids: ["a"], now: now)
    _ = try store.markRead(ids: ["a"], now: now)
    _ = try store.dismiss(id: "b", now: now)
    let page = try store.journal(since: start, limit: 10)
    #expect(page.entries.map(\.id) == ["b", "a", "a", "b"])
    #expect(page.entries.map(\.change) == [.added, .updated, .updated, .removed])
    #expect(page.entries.map(\.fields) == [[], .seen, .status, .status])
    #expect(page.through == page.entries.last?.seq && !page.more)
    // A page of one resumes where it stopped.
    let first = try store.journal(since: start, limit: 1)
    #expect(first.more && first.entries.map(\.id) == ["b"])
    #expect(try store.journal(since: first.through, limit: 10).entries.count == 3)
  }

  @Test func anUnchangedRowIsNotJournalled() throws {
    let temp = try TemporaryStore()
    let message = try backendMessage("a", sentAt: 1)
    try temp.store.add(message)
    let tail = try temp.store.journalTail()
    try temp.store.add(message)  // the same payload again
    _ = try temp.store.markSeen(ids: ["a", "missing"], now: now)
    _ = try temp.store.markSeen(ids: ["a"], now: now)  // seen already
    #expect(try temp.store.journal(since: tail, limit: 10).entries.map(\.fields) == [.seen])
  }

  @Test func aRowInsertedAsNewThatIsThereFailsItsWholeWrite() throws {
    // A row known absent is inserted without a statement journal (`OR ROLLBACK`): were it there,
    // the write fails whole, the rows and journal entries before it in the transaction included.
    let temp = try TemporaryStore()
    let store = temp.store
    try store.add(backendMessage("a", sentAt: 1))
    let tail = try store.journalTail()
    let b = try backendMessage("b", sentAt: 2)
    let a = try backendMessage("a", sentAt: 3)
    #expect(throws: StoreError.self) {
      try store.write { database in
        for message in [b, a] {
          try InboxStore.upsertRow(
            database, message, pinned: false, serverStatus: .delivered, status: .delivered, onlyRaise: false,
            replacing: false)
        }
      }
    }
    #expect(try store.read { try InboxStore.row($0, id: "b") } == nil)
    #expect(try store.read { try InboxStore.row($0, id: "a")?.sentAt } == 1)
    #expect(try store.journal(since: tail, limit: 10).entries.isEmpty)
    // The store takes writes again.
    try store.add(b)
    #expect(try store.journal(since: tail, limit: 10).entries.map(\.id) == ["b"])
  }

  @Test func aCursorOlderThanTheJournalKeepsIsRefused() throws {
    let temp = try TemporaryStore()
    let store = temp.store
    try store.add(backendMessage("first", sentAt: 1))
    let old = try store.journalTail()
    // More changes than the journal keeps, in one statement (the triggers journal each row).
    try store.write { database in
      try database.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Journal.kept + 2048))
        INSERT INTO messages (id, payload, ingested_at, source, pinned, sort_time, server_status, status)
          SELECT 'bulk' || i, '{}', 0, 'backend', 0, i, 1, 1 FROM n
        """)
    }
    #expect(throws: JournalError.self) { try store.journal(since: old, limit: 10) }
    let tail = try store.journalTail()
    let rows = try store.read { try $0.scalar("SELECT count(*) FROM journal") ?? 0 }
    #expect(rows >= Journal.kept && rows < Journal.kept + 1024)
    #expect(try store.journal(since: tail - Journal.kept + 1, limit: 5).entries.count == 5)
    // Past the last row (a store put back from a copy) is refused too.
    #expect(throws: JournalError.self) { try store.journal(since: tail + 1, limit: 10) }
  }
}
