import Foundation
import InboxCore
import JSON
import Testing

@testable import InboxStore

/// The outbox remembers which backend account each change belongs to (schema version 3).
struct OutboxAccountTests {
  let now: Int64 = 1_800_000_000

  /// A version-1 store keeps every queued change, in order, as changes of the account in force.
  @Test func migrationKeepsQueuedChangesAndTheirOrder() throws {
    try withVersionOneStore { store in
      let entries = try store.outbox()
      #expect(entries.map(\.messageID) == ["m-read", "m-gone"])
      #expect(entries.map(\.account) == ["", ""])
      #expect(entries.map(\.seq) == entries.map(\.seq).sorted())
      // New changes get later sequence numbers than the migrated ones.
      try store.add(try backendMessage("fresh", sentAt: 100))
      _ = try store.markRead(ids: ["fresh"], now: now)
      #expect(try store.outbox().last.map { $0.messageID } == "fresh")
      #expect(try store.outbox().last.map(\.seq) ?? 0 > entries.map(\.seq).max() ?? 0)
      // Version 5: the table and its unique key, without the index that duplicated it.
      let btrees = try store.read { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE tbl_name = 'outbox'") }
      #expect(btrees == 2)
    }
  }

  /// A change's number never comes back, even after the newest change has left the outbox: a sync
  /// that confirms a change by its number must not delete a newer change that took it.
  @Test func aSequenceNumberIsNeverReused() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 100, order: "7"))
    _ = try temp.store.markRead(ids: ["a"], now: now)
    let first = try #require(try temp.store.outbox().last)
    try temp.store.confirm(first)
    #expect(try temp.store.outbox().isEmpty)
    _ = try temp.store.dismiss(id: "a", now: now)
    let second = try #require(try temp.store.outbox().last)
    #expect(second.seq > first.seq)
    // Confirming the first again (a stale copy) leaves the second queued.
    try temp.store.confirm(first)
    #expect(try temp.store.outbox() == [second])
  }

  /// Retiring an account moves its sendable changes aside, drops unsendable ones, empties the inbox.
  @Test func retiringAnAccount() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 100, order: "7"))
    try temp.store.add(try backendMessage("gone", sentAt: 100, order: "8"))
    _ = try temp.store.dismiss(id: "gone", now: now)
    _ = try temp.store.markRead(ids: ["a"], now: now)
    try temp.store.syncTransaction { try $0.enqueue(messageID: "x", status: .read, order: nil, hash: nil, now: now) }
    let (removed, dropped) = try temp.store.retireAccount(as: #"{"application":"OLD"}"#, settings: [("k", 1)], now: now)
    #expect(removed == ["a"])
    #expect(dropped == 1)
    #expect(try temp.store.isEmpty())
    #expect(try temp.store.setting("k") == 1)
    #expect(try temp.store.outbox().map(\.account) == [#"{"application":"OLD"}"#, #"{"application":"OLD"}"#])
    #expect(try temp.store.syncTransaction { try $0.pendingOutbox() }.isEmpty)

    // The same change made under the new account is queued on its own.
    try temp.store.add(try backendMessage("a", sentAt: 100, order: "70"))
    _ = try temp.store.markRead(ids: ["a"], now: now)
    #expect(try temp.store.outbox().filter { $0.messageID == "a" }.map(\.order) == ["7", "70"])
    #expect(try temp.store.pendingCount() == 3)
  }
}
