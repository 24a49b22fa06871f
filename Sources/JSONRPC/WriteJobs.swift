import Posix

/// Where a write that is not a request's own is submitted (a wallet download's mark of its
/// message): run by the scheduler as a write method is, one at a time in arrival order, made again
/// while it is busy as its `Patience` allows.
public struct WriteJobs: Sendable {
  let submit: @Sendable (_ job: @escaping Scheduler.Job) -> Void

  /// Made once, on this thread, where no scheduler runs (a test, a command): a busy write answers
  /// `tooLong` at once.
  public static let once = WriteJobs { job in _ = job() }

  /// Submits `attempt`; `completion` gets its outcome, from the thread that made it.
  public func submit<T: Sendable>(
    _ attempt: @escaping @Sendable () -> WriteAttempt<T>,
    completion: @escaping @Sendable (Result<T, any Error>) -> Void
  ) {
    let patience = Patience()
    submit { .after(attempt(), patience, done: completion) }
  }
}
