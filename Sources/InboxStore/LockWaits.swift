/// Who waits when a write meets another process's write lock.
public enum LockWaits {
  /// True within a call whose caller waits for the lock itself, holding no thread: a write there
  /// throws `StoreError.lockHeld` at once instead of blocking in SQLite's busy handler. The caller
  /// runs it again when the lock may be free (the write lane, `RetryLater`).
  @TaskLocal public static var handedToCaller = false

  /// How long a write may wait for another process's lock before it fails `busy`, in seconds.
  public static let patience = Double(StoreWriter.busyTimeoutMilliseconds) / 1000
}
