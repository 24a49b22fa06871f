internal import CSQLite

/// Who waits when a write meets another process's write lock.
public enum LockWaits {
  /// Set within a call whose caller waits for the lock itself, holding no thread. No write waits:
  /// one that meets another process's lock, this process's writer held by another of its writes
  /// (a sync's, a request's) or the check of an unclean start throws at once, having done nothing
  /// (`StoreError.lockHeld`, `writerHeld`, `checkRunning`); within this call the caller runs it
  /// again when the lock may be free (the scheduler, `RetryLater`), and knows whether any of its
  /// writes committed before (`HandedWrites`).
  @TaskLocal public static var handed: HandedWrites?

  /// How long a write may wait for another process's lock before it fails `busy`, in seconds.
  public static let patience = 5.0
}

extension StoreError {
  /// A write met another process's write lock, and did nothing.
  public static var lockHeld: StoreError {
    var error = StoreError(kind: .busy, code: SQLITE_BUSY, message: "another process holds the store's write lock")
    error.lockHeld = true
    return error
  }

  /// A write refused because another write of this process holds the store's writer, having done
  /// nothing: made again when that one ends, as one that met the lock is.
  static var writerHeld: StoreError {
    var error = StoreError(kind: .busy, code: SQLITE_BUSY, message: "another write of this process holds the store")
    error.lockHeld = true
    return error
  }

  /// A write refused while the check of an unclean start runs, having done nothing: made again when
  /// the check ends, as one that met the lock is.
  static var checkRunning: StoreError {
    var error = StoreError(
      kind: .busy, code: SQLITE_BUSY, message: "the store is being checked after an unclean end; try again")
    error.lockHeld = true
    return error
  }

  /// A write that found the store's write lock taken for as long as it may wait, and did nothing
  /// (the check of an unclean start, which refuses writes too, ends well within it).
  public static var lockHeldTooLong: StoreError {
    StoreError(
      kind: .busy, code: SQLITE_BUSY,
      message: "another process held the store's write lock for \(Int(LockWaits.patience)) s")
  }
}

/// The writes of one call that waits for the store's lock itself (`LockWaits.handed`): whether any
/// committed, so a lock met later is known to have left part of the call done.
public final class HandedWrites: @unchecked Sendable {
  // Unchecked: set on the writer by the call's own writes, read by the call after they return.
  public internal(set) var committed = false

  public init() {}
}
