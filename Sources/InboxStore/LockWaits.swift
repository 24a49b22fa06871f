internal import CSQLite
import Posix

extension InboxStore {
  /// Runs `body`, a use case that writes, as one write job: it holds the store's writer on this
  /// thread until it returns, its writes made within, and no thread waits for a lock. `.busy` when
  /// it could not start (another process holds the store's write lock, another write of this
  /// process holds the writer, the check of an unclean start runs) before any of its writes
  /// committed: nothing was done, and whoever submitted it makes it again when `wake` calls back
  /// (the scheduler). Met after a write committed, the lock is its outcome (`busy`): part of it was
  /// done, unless `repeatable` (the same whenever it is made again: the start-up's writes).
  /// A write job started inside another on the same thread stops there (a programming error).
  public func attemptWrite<T>(repeatable: Bool = false, _ body: () throws -> T) -> WriteAttempt<T> {
    let busy = WriteAttempt<T>.busy(wake: lockWaits.wake, tooLong: .failure(StoreError.lockHeldTooLong))
    if health.refusesWrite() { return busy }
    return writer.holdingForJob { () -> WriteAttempt<T> in
      committedInJob = false
      do {
        return .done(.success(try body()))
      } catch let error as StoreBusy {
        return committedInJob && !repeatable ? .done(.failure(error.error)) : busy
      } catch {
        return .done(.failure(error))
      }
    } ?? busy
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
