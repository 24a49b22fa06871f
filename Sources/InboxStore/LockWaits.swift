internal import CSQLite

/// Who waits when a write meets another process's write lock.
public enum LockWaits {
  /// True within a call whose caller waits for the lock itself, holding no thread: a write there
  /// throws `StoreError.lockHeld` at once instead of blocking in SQLite's busy handler. The caller
  /// runs it again when the lock may be free (the write lane, `RetryLater`).
  @TaskLocal public static var handedToCaller = false

  /// How long a write may wait for another process's lock before it fails `busy`, in seconds.
  public static let patience = Double(StoreWriter.busyTimeoutMilliseconds) / 1000
}

extension StoreError {
  /// A write handed to its caller met another process's write lock, and did nothing.
  static var lockHeld: StoreError {
    var error = StoreError(kind: .busy, code: SQLITE_BUSY, message: "another process holds the store's write lock")
    error.lockHeld = true
    return error
  }

  /// A write that met another process's write lock for as long as it may wait, and did nothing.
  public static var lockHeldTooLong: StoreError {
    StoreError(
      kind: .busy, code: SQLITE_BUSY,
      message: "another process held the store's write lock for \(Int(LockWaits.patience)) s")
  }
}
