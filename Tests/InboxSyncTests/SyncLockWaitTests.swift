import Dispatch
import Foundation
import InboxCore
import InboxTestSupport
import JSON
import Posix
import Synchronization
import Testing

@testable import InboxStore
@testable import InboxSync

/// A sync whose writes meet another process's write lock: each write has done nothing and is kept,
/// the run holds no thread while it waits (no SQLite busy handler sleeps), it goes on from that
/// write when the lock is released, and it fails `busy` once it has waited the patience.
struct SyncLockWaitTests {
  let now: Int64 = 1_800_000_000

  private func rig(_ temp: TemporaryStore, inbox: [JSONValue]) throws -> (Synchronizer, FakeBackend) {
    let backend = FakeBackend(inbox: inbox)
    var options = Synchronizer.Options(token: APIToken("tok"))
    options.random = { 0 }
    let sync = try Synchronizer(store: temp.store, backend: backend, options: options, clock: { [now] in now })
    _ = try sync.configure(
      BackendSettings.Patch(
        baseURL: .some(try BackendURL("http://127.0.0.1:9/json/1.3/")), application: .some("APP-1"),
        hwid: .some("hw-1"), userID: .some("user-1")))
    return (sync, backend)
  }

  /// Another process's write lock on the store: a connection of its own in a transaction.
  private func lock(_ temp: TemporaryStore) throws -> Database {
    let other = try Database(path: temp.path)
    try other.execute("BEGIN IMMEDIATE")
    return other
  }

  @Test func aSyncWaitsForTheLockHoldingNoThreadAndGoesOnFromTheWriteThatMetIt() throws {
    let temp = try TemporaryStore()
    let (sync, backend) = try rig(temp, inbox: [wireMessage("a", order: "101"), wireMessage("b", order: "102")])
    try temp.store.ingest(wireMessage("a", order: "101"), now: now)
    _ = try temp.store.markRead(ids: ["a"], now: now)
    let other = try lock(temp)
    let outcome = Mutex<Result<SyncReport, SyncFailure>?>(nil)
    let ended = DispatchSemaphore(value: 0)
    sync.sync { result in
      outcome.withLock { $0 = result }
      ended.signal()
    }
    // The change was sent; its confirmation waits for the lock, and the run with it.
    #expect(ended.wait(timeout: .now() + .milliseconds(500)) == .timedOut)
    #expect(backend.calls.map(\.method) == [.inboxStatus])
    try other.execute("COMMIT")
    try other.close()
    #expect(ended.wait(timeout: .now() + 60) == .success)
    let report = try #require(try outcome.withLock { $0 }?.get())
    // Sent once, not again: the run went on from its confirmation.
    #expect(backend.calls.map(\.method) == [.inboxStatus, .getInboxMessages])
    #expect(report.pushed == 1 && report.added == ["b"] && report.pending == 0)
    #expect(try temp.store.feed(now: now) == ["a:2", "b:1"])
  }

  @Test func aSyncStillLockedOutAfterThePatienceFailsBusy() throws {
    let temp = try TemporaryStore()
    let (sync, backend) = try rig(temp, inbox: [wireMessage("b", order: "102")])
    let other = try lock(temp)
    defer {
      try? other.execute("ROLLBACK")
      try? other.close()
    }
    let failure: SyncFailure? = waited { done in sync.sync { done($0.failure) } }
    guard case .store(let error)? = failure?.error else {
      Issue.record("expected a store failure, got \(String(describing: failure))")
      return
    }
    #expect(error.kind == .busy && error.message == StoreError.lockHeldTooLong.message)
    // Fetched once, and nothing merged.
    #expect(backend.calls.map(\.method) == [.getInboxMessages])
    #expect(try temp.store.feed(now: now) == [])
  }
}

extension Result {
  fileprivate var failure: Failure? {
    guard case .failure(let failure) = self else { return nil }
    return failure
  }
}
