import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import InboxStore

/// The store's one writer and another process's write lock: a write job that meets either comes
/// back busy at once having done nothing (`attemptWrite`), a write outside one fails `busy` at
/// once, and one that must not wait is skipped.
struct StoreWriterTests {
  @Test func aWriteJobUnderAnotherProcesssLockIsBusyAtOnceHavingDoneNothing() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let other = try fixture.lockedByAnother()
    // At once, while the lock is still held: a write that waited in SQLite's busy handler would
    // come back only after the busy timeout.
    guard case .busy = store.attemptWrite({ try store.setSetting("k", .int(1)) }) else {
      Issue.record("a write job under another process's lock was not busy")
      return
    }
    #expect(try store.setting("k") == nil)
    try other.execute("ROLLBACK")
    try other.close()
    guard case .done(.success) = store.attemptWrite({ try store.setSetting("k", .int(2)) }) else {
      Issue.record("the write job failed once the lock was free")
      return
    }
    #expect(try store.setting("k") == .int(2))
  }

  @Test func aWriteJobThatMeetsTheLockAfterAWriteOfItCommittedFailsBusy() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    var other: Database?
    let attempt = store.attemptWrite {
      try store.setSetting("first", .int(1))
      other = try fixture.lockedByAnother()
      try store.setSetting("second", .int(2))
    }
    defer {
      try? other?.execute("ROLLBACK")
      try? other?.close()
    }
    // Part of it was done: made again, it would make its first write twice.
    guard case .done(.failure(let error as StoreError)) = attempt else {
      Issue.record("a job that committed part of itself came back \(attempt)")
      return
    }
    #expect(error.kind == .busy)
    #expect(try store.setting("first") == .int(1) && store.setting("second") == nil)
  }

  @Test func aWriteJobIsBusyAtOnceWhileAnotherThreadsWriteHoldsTheWriter() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let holder = try HeldWriter(store)
    defer { holder.letGo() }
    let busy = Mutex<Bool?>(nil)
    let returned = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let attempt = store.attemptWrite { try store.setSetting("k", .int(1)) }
      if case .busy = attempt { busy.withLock { $0 = true } } else { busy.withLock { $0 = false } }
      returned.signal()
    }
    let answered = returned.wait(timeout: .now() + 60) == .success
    #expect(answered, "the write job waited for the writer")
    #expect(busy.withLock { $0 } == true)
    holder.letGo()
    #expect(holder.outcome.wait(timeout: .now() + 60) == .success)
    #expect(try store.setting("k") == nil)
  }

  @Test func aWriteMadeInsideAnotherOnTheSameThreadStops() async {
    await #expect(processExitsWith: .failure) {
      let store = try InboxStore.openInMemory()
      _ = store.attemptWrite {
        _ = store.attemptWrite { try store.setSetting("k", .int(1)) }
      }
    }
    await #expect(processExitsWith: .failure) {
      let store = try InboxStore.openInMemory()
      try store.write { _ in try store.setSetting("k", .int(1)) }
    }
  }

  @Test func aWriteOutsideTheSchedulerIsRefusedAtOnceWhileThisProcesssWriterIsHeld() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let holder = try HeldWriter(store)
    defer { holder.letGo() }
    let refused = Mutex<StoreError?>(nil)
    let returned = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do {
        try store.setSetting("k", .int(1))
      } catch let error as StoreError {
        refused.withLock { $0 = error }
      } catch {}
      returned.signal()
    }
    let answered = returned.wait(timeout: .now() + 60) == .success
    #expect(answered, "the write waited for the writer")
    #expect(refused.withLock { $0?.message } == StoreError.writerHeld.message)
    holder.letGo()
    #expect(holder.outcome.wait(timeout: .now() + 60) == .success)
    try store.setSetting("k", .int(2))
    #expect(try store.setting("k") == .int(2))
  }

  @Test func aWriteOutsideTheSchedulerFailsBusyAtOnceWhileAnotherProcessHoldsTheLock() throws {
    let fixture = try TemporaryStore()
    let other = try fixture.lockedByAnother()
    // No thread waits for the lock (SQLite's busy handler is never given the wait): the write is
    // refused, having done nothing; a caller that waits makes it again as a callback.
    do {
      try fixture.store.setSetting("k", .int(1))
      Issue.record("wrote under another process's lock")
    } catch let error as StoreError {
      #expect(error.kind == .busy && error.message == StoreError.lockHeld.message)
    }
    try other.execute("ROLLBACK")
    try other.close()
    #expect(try fixture.store.setting("k") == nil)
    try fixture.store.setSetting("k", .int(1))
    #expect(try fixture.store.setting("k") == .int(1))
  }

  @Test func aWriteThatMustNotWaitIsSkippedWhileAnotherProcessHoldsTheLock() throws {
    let fixture = try TemporaryStore()
    let other = try fixture.lockedByAnother()
    #expect(try fixture.store.writeIfFree { _ in 1 } == nil)
    try other.execute("ROLLBACK")
    try other.close()
    #expect(try fixture.store.writeIfFree { _ in 1 } == 1)
  }
}

/// The writer as a lock taken only when free: a write that finds it held is refused and told when
/// it is let go; work handed to the holder is done before it lets go, in the order handed.
struct WriterHandOffTests {
  @Test func aRefusedWriteIsToldOnceTheHolderLetsGo() throws {
    let database = try Database(path: ":memory:")
    defer { try? database.close() }
    let freed = Mutex(0)
    let writer = StoreWriter(database: database) { freed.withLock { $0 += 1 } }
    let inner = writer.run { _ in
      // Refused on another thread: on this one a write inside a write stops (not reentrant).
      let refused = Mutex(false)
      let thread = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        refused.withLock { $0 = writer.run { _ in 1 } == nil }
        thread.signal()
      }
      thread.wait()
      #expect(freed.withLock { $0 } == 0, "told while the writer was still held")
      return refused.withLock { $0 }
    }
    #expect(inner == true)
    #expect(freed.withLock { $0 } == 1)
    // A holder that refused nothing tells no one.
    #expect(writer.run { _ in 2 } == 2)
    #expect(freed.withLock { $0 } == 1)
  }

  @Test func workHandedToTheHolderIsDoneBeforeItLetsGo() throws {
    let database = try Database(path: ":memory:")
    defer { try? database.close() }
    let writer = StoreWriter(database: database) {}
    let done = Mutex<[String]>([])
    _ = writer.run { _ in
      #expect(!writer.whenFree { _ in done.withLock { $0.append("first") } })
      #expect(!writer.whenFree { _ in done.withLock { $0.append("second") } })
      done.withLock { $0.append("write") }
    }
    #expect(done.withLock { $0 } == ["write", "first", "second"])
    #expect(writer.whenFree { _ in done.withLock { $0.append("at once") } })
    #expect(done.withLock { $0.last } == "at once")
  }

  @Test func aStoreClosedWhileAWriteHoldsTheWriterClosesAsTheWriteEnds() throws {
    let store = try InboxStore.openInMemory()
    let holder = try HeldWriter(store)
    let directory = try #require(store.memoryDirectory)
    try store.close()
    // Closed under the write, it would have failed it; the write ends, then the store closes.
    #expect(Files.isDirectory(directory))
    holder.letGo()
    #expect(holder.outcome.wait(timeout: .now() + 60) == .success)
    #expect(holder.failure.withLock { $0 } == nil)
    #expect(!Files.isDirectory(directory))
  }
}

/// A write of this process holding the store's writer, on a thread of its own, until `letGo`.
final class HeldWriter: Sendable {
  private let release = DispatchSemaphore(value: 0)
  private let released = Mutex(false)
  /// Signalled when the write has returned; `failure` is what it threw.
  let outcome = DispatchSemaphore(value: 0)
  let failure = Mutex<(any Error)?>(nil)

  init(_ store: InboxStore) throws {
    let holding = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [self] in
      do {
        try store.write { _ in
          holding.signal()
          release.wait()
        }
      } catch {
        failure.withLock { $0 = error }
      }
      outcome.signal()
    }
    guard holding.wait(timeout: .now() + 60) == .success else { throw StoreError(kind: .busy, message: "never held") }
  }

  func letGo() {
    let first = released.withLock { released in
      defer { released = true }
      return !released
    }
    guard first else { return }
    release.signal()
  }
}

/// A write job made again when the lock may be free, as a callback (`WriteAttempt.retrying`, as
/// the store's opening and the start-up's writes are): no thread waits while another process holds
/// the lock, it is made once the lock is released, and one busy for the patience fails `busy`
/// having done nothing.
struct RetriedWriteTests {
  @Test func aWriteIsMadeOnceTheLockIsReleased() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let other = try fixture.lockedByAnother()
    let outcome = Mutex<Result<Int, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    WriteAttempt.retrying(
      {
        store.attemptWrite {
          try store.setSetting("k", .int(1))
          return 1
        }
      },
      completion: { result in
        outcome.withLock { $0 = result }
        done.signal()
      })
    // The caller's thread is back at once; the write waits as a callback.
    #expect(done.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
    try other.execute("COMMIT")
    try other.close()
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(try outcome.withLock { $0 }?.get() == 1)
    #expect(try store.setting("k") == .int(1))
  }

  @Test func aWriteBusyBehindThisProcesssWriterIsMadeOnceItIsLetGo() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let holder = try HeldWriter(store)
    defer { holder.letGo() }
    let made = Mutex(0)
    let done = DispatchSemaphore(value: 0)
    WriteAttempt.retrying(
      {
        store.attemptWrite {
          made.withLock { $0 += 1 }
          try store.setSetting("k", .int(1))
        }
      },
      completion: { _ in done.signal() })
    #expect(made.withLock { $0 } == 0, "made while the writer was held")
    holder.letGo()
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(made.withLock { $0 } == 1)
    #expect(try store.setting("k") == .int(1))
  }

  @Test func aWriteBusyForThePatienceFailsBusyHavingDoneNothing() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let other = try fixture.lockedByAnother()
    defer {
      try? other.execute("ROLLBACK")
      try? other.close()
    }
    let failure = Mutex<StoreError?>(nil)
    let done = DispatchSemaphore(value: 0)
    WriteAttempt.retrying({ store.attemptWrite { try store.setSetting("k", .int(1)) } }) { result in
      if case .failure(let error as StoreError) = result { failure.withLock { $0 = error } }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(failure.withLock { $0?.message } == StoreError.lockHeldTooLong.message)
    #expect(try store.setting("k") == nil)
  }
}

extension TemporaryStore {
  /// Another connection holding the store's write lock, as another process would.
  func lockedByAnother() throws -> Database {
    let other = try Database(path: path)
    try other.execute("BEGIN IMMEDIATE")
    return other
  }
}
