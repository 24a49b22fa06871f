import Dispatch
import Foundation
import JSON
import Synchronization
import Testing

@testable import InboxStore

/// The store's one writer: a write that finds another process holding the lock says it waits and
/// is woken by SQLite's busy handler when the lock is free; a write that must not wait is skipped.
struct StoreWriterTests {
  /// Another connection holding the store's write lock, as another process would.
  private func lockedByAnother(_ fixture: TemporaryStore) throws -> Database {
    let other = try Database(path: fixture.path)
    try other.execute("BEGIN IMMEDIATE")
    return other
  }

  @Test func aWriteBehindAnotherProcessSaysItWaitsAndCommitsOnceTheLockIsFree() throws {
    let fixture = try TemporaryStore()
    let reports = Mutex<[Bool]>([])
    let waiting = DispatchSemaphore(value: 0)
    fixture.store.onLockWait { isWaiting in
      reports.withLock { $0.append(isWaiting) }
      if isWaiting { waiting.signal() }
    }
    let other = try lockedByAnother(fixture)
    let committed = DispatchSemaphore(value: 0)
    let store = fixture.store
    DispatchQueue.global().async {
      try? store.setSetting("k", .int(1))
      committed.signal()
    }
    // Told, not asked: the writer reports the wait before it blocks in SQLite's busy handler.
    #expect(waiting.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(committed.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    try other.execute("ROLLBACK")
    try other.close()
    #expect(committed.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(reports.withLock { $0 } == [true, false])
    #expect(try store.setting("k") == .int(1))
  }

  @Test func aWriteThatMustNotWaitIsSkippedWhileAnotherProcessHoldsTheLock() throws {
    let fixture = try TemporaryStore()
    let reports = Mutex<[Bool]>([])
    fixture.store.onLockWait { isWaiting in reports.withLock { $0.append(isWaiting) } }
    let other = try lockedByAnother(fixture)
    #expect(try fixture.store.writeIfFree { _ in 1 } == nil)
    try other.execute("ROLLBACK")
    try other.close()
    #expect(try fixture.store.writeIfFree { _ in 1 } == 1)
    #expect(reports.withLock { $0 }.isEmpty, "a write that skips never waits")
  }
}
