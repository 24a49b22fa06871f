import Foundation
import InboxCore
import InboxTestSupport
import Testing

@testable import InboxStore

/// Two opens of one store file stand for two processes: each reads from the change log what the
/// other committed, and never what it wrote itself.
struct ChangeLogTests {
  @Test func eachOpenReadsWhatTheOtherCommittedAndNotItsOwn() throws {
    let first = try TemporaryStore()
    let other = try InboxStore.open(InboxStore.Options(path: first.path))
    defer { try? other.close() }
    other.waitUntilChecked()  // the first's log is there: the other checks the store before it writes
    let start = try other.changeLogTail()
    try first.store.add(try backendMessage("a", sentAt: 100))
    try first.store.add(try backendMessage("b", sentAt: 200))
    _ = try first.store.markRead(ids: ["a"], now: 300)
    _ = try first.store.dismiss(id: "b", now: 300)
    let seen = try #require(try other.changes(after: start))
    // b came and went between the two looks: nothing to tell about it.
    #expect(seen.added == ["a"] && seen.updated.isEmpty && seen.removed.isEmpty && !seen.incomplete)
    // Nothing committed since: not even the log is read.
    #expect(try other.changes(after: seen.through) == nil)

    _ = try other.markRead(ids: ["a"], now: 400)  // already read: no row
    try other.add(try backendMessage("c", sentAt: 500))
    let own = try #require(try other.changes(after: seen.through))
    #expect(own.isEmpty)
    let fromOther = try #require(try first.store.changes(after: start))
    #expect(fromOther.added == ["c"])
    _ = try other.dismiss(id: "a", now: 600)
    let removed = try #require(try first.store.changes(after: fromOther.through))
    #expect(removed.removed == ["a"] && removed.added.isEmpty)
  }

  @Test func rowsPrunedBeforeTheyWereReadAreToldAsIncomplete() throws {
    let first = try TemporaryStore()
    let other = try InboxStore.open(InboxStore.Options(path: first.path))
    defer { try? other.close() }
    let start = try other.changeLogTail()
    for index in 0..<9_300 { try first.store.add(try backendMessage("m\(index)", sentAt: Int64(index))) }
    let seen = try #require(try other.changes(after: start))
    #expect(seen.incomplete)
    #expect(seen.added.count < 9_300 && seen.through == start + 9_300)
  }

  /// Rows another program writes: one at the largest number is ignored (later rows are still
  /// numbered after the log's own and read), one out of line is a gap (incomplete), and one
  /// naming no message in the feed adds nothing.
  @Test func rowsAnotherProgramPlantsAreNotTrusted() throws {
    let first = try TemporaryStore()
    let other = try InboxStore.open(InboxStore.Options(path: first.path))
    defer { try? other.close() }
    let start = try other.changeLogTail()
    let plant = { (sql: String) in _ = try first.store.write { try $0.execute(sql) } }
    try plant("INSERT INTO change_log VALUES (9223372036854775807, 'planted', 0, 1, 0)")
    try first.store.add(try backendMessage("a", sentAt: 100))
    let seen = try #require(try other.changes(after: start))
    #expect(seen.added == ["a"] && !seen.incomplete && seen.through == start + 1)

    try plant("INSERT INTO change_log VALUES (\(seen.through + 1), 'planted', 0, 1, 0)")
    try first.store.add(try backendMessage("b", sentAt: 200))
    let inLine = try #require(try other.changes(after: seen.through))
    #expect(inLine.added == ["b"] && !inLine.incomplete)

    try plant("INSERT INTO change_log VALUES (\(inLine.through + 5), 'planted', 0, 1, 0)")
    try first.store.add(try backendMessage("c", sentAt: 300))
    let gap = try #require(try other.changes(after: inLine.through))
    #expect(gap.incomplete && gap.added.isEmpty && gap.through == inLine.through + 6)
    try first.store.add(try backendMessage("d", sentAt: 400))
    #expect(try other.changes(after: gap.through)?.added == ["d"])
  }

  @Test func aLoneStoreWritesNoRowsUntilAnotherOpensIt() throws {
    let first = try TemporaryStore()
    let rows = { try first.store.read { try $0.scalar("SELECT count(*) FROM change_log") } }
    try first.store.add(try backendMessage("alone", sentAt: 100))
    _ = try first.store.dismiss(id: "alone", now: 200)
    #expect(try rows() == 0)
    let other = try InboxStore.open(InboxStore.Options(path: first.path))
    let start = try other.changeLogTail()
    try first.store.add(try backendMessage("seen", sentAt: 300))
    #expect(try rows() == 1)
    #expect(try other.changes(after: start)?.added == ["seen"])
    try other.close()
    try first.store.add(try backendMessage("alone-again", sentAt: 400))
    #expect(try rows() == 1)
  }

  /// A ring writes the signal file's one byte; a commit nobody else follows writes nothing there.
  @Test func aLoneStoreRingsNobody() throws {
    let first = try TemporaryStore()
    let signal = first.path + "-signal"
    let size = { (try FileManager.default.attributesOfItem(atPath: signal)[.size] as? Int) ?? -1 }
    try first.store.add(try backendMessage("alone", sentAt: 100))
    _ = try first.store.dismiss(id: "alone", now: 200)
    #expect(try size() == 0)
    let other = try InboxStore.open(InboxStore.Options(path: first.path))
    try first.store.add(try backendMessage("heard", sentAt: 300))
    #expect(try size() == 1)
    try other.close()
    #expect(truncate(signal, 0) == 0)
    try first.store.add(try backendMessage("alone-again", sentAt: 400))
    #expect(try size() == 0)
  }

  @Test func aStoreOfTheLastSchemaGainsAnEmptyLog() throws {
    let temporary = try TemporaryStore()
    #expect(try temporary.store.changeLogTail() == 0)
    #expect(try temporary.store.read { try $0.scalar("SELECT count(*) FROM change_log") } == 0)
  }
}
