import Posix

/// The lease that keeps syncs single-flight across the processes serving one store: a run takes
/// it before its first backend call and gives it back once its outcome is stored
/// (`SyncOutcome`), so two processes never fetch at the same time.
public protocol SyncGate: Sendable {
  /// Calls `granted` once this process holds the lease: at once (false) when it is free, later
  /// (true) when the holder released it, died, or stopped making progress; nil when
  /// `cancellation` was set first. `waiting` is told first when the lease is found held. A wait
  /// holds no thread.
  func acquire(
    cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void,
    _ granted: @escaping @Sendable (_ waited: Bool?) -> Void)
  /// Gives the lease back, waking the processes that wait for it.
  func release()
}
