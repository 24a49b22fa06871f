internal import CSQLite
import Posix

extension InboxStore {
  /// Begins a write job on this thread: it holds the store's writer until `WriteJob.end`, its
  /// writes made within, and no thread waits for a lock. Nil when it cannot start (another process
  /// holds the store's write lock, another write of this process holds the writer, the check of an
  /// unclean start runs): the job is `busyWrite`, to be made again when its wake-up calls back. A
  /// write job begun inside another on the same thread stops there (a programming error).
  public func beginWriteJob() -> WriteJob? {
    guard !health.refusesWrite(), writer.takeForJob() else { return nil }
    committedInJob = false
    return WriteJob(store: self)
  }

  /// What a write job that could not start comes to: woken when the lock may be free.
  public func busyWrite<T>() -> WriteAttempt<T> {
    .busy(wake: lockWaits.wake, tooLong: .failure(StoreError.lockHeldTooLong))
  }

  /// `body`, a use case that writes, as one write job (`beginWriteJob`, `WriteJob.end`): for the
  /// callers that hand the store their use case (the sync, the start-up, tests).
  public func attemptWrite<T>(repeatable: Bool = false, _ body: () throws -> T) -> WriteAttempt<T> {
    guard let job = beginWriteJob() else { return busyWrite() }
    return job.end(Result { try body() }, repeatable: repeatable)
  }
}

/// A write job holding the store's writer (`InboxStore.beginWriteJob`).
public struct WriteJob {
  let store: InboxStore

  /// Lets the writer go, and says what the job came to: `outcome`; or busy when a write in it
  /// could not start before any of its writes committed (nothing was done). Met after one
  /// committed, the lock is its outcome (`busy`: part of it was done), unless `repeatable` (the
  /// same whenever it is made again: the start-up's writes).
  public func end<T>(_ outcome: Result<T, any Error>, repeatable: Bool = false) -> WriteAttempt<T> {
    defer { store.writer.letGo() }
    guard case .failure(let error as StoreBusy) = outcome else { return .done(outcome) }
    return store.committedInJob && !repeatable ? .done(.failure(error.error)) : store.busyWrite()
  }
}

/// A write of a write job that could not start (`InboxStore.attemptWrite` says it as `.busy`);
/// outside a job its `error` is the write's outcome.
struct StoreBusy: Error {
  let error: StoreError
}

extension StoreError {
  /// A write met another process's write lock, and did nothing.
  public static var lockHeld: StoreError {
    StoreError(kind: .busy, code: SQLITE_BUSY, message: "another process holds the store's write lock")
  }

  /// A write refused because another write of this process holds the store's writer, having done
  /// nothing.
  static var writerHeld: StoreError {
    StoreError(kind: .busy, code: SQLITE_BUSY, message: "another write of this process holds the store")
  }

  /// A write refused while the check of an unclean start runs, having done nothing.
  static var checkRunning: StoreError {
    StoreError(kind: .busy, code: SQLITE_BUSY, message: "the store is being checked after an unclean end; try again")
  }

  /// A write that found the store's write lock taken for as long as it may wait (`Patience`), and
  /// did nothing (the check of an unclean start, which refuses writes too, ends well within it).
  public static var lockHeldTooLong: StoreError {
    StoreError(
      kind: .busy, code: SQLITE_BUSY,
      message: "another process held the store's write lock for \(Int(Patience.seconds)) s")
  }
}
