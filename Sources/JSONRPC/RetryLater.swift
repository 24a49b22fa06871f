import Dispatch

/// What a write that meets another process's lock does: the request says (`RequestContext`).
public enum LockPatience: Sendable {
  /// Not waited for: the write fails `busy` at once, having done nothing (what is not a method's
  /// write: a command, a test). A method that is not a write and writes all the same (a wallet
  /// download marking its message read) waits as a callback of its own (`InboxStore.writeWhenFree`).
  case answersAtOnce
  /// Throws `RetryLater`, having done nothing: the scheduler runs the request again when the lock
  /// may be free, and no thread waits meanwhile.
  case retries
  /// Answers `busy`: the request has waited in the scheduler for as long as it may.
  case exhausted
}

/// A write that could not begin for a cause that passes (another process holds the store's write
/// lock) and did nothing: the scheduler runs its request again when `wake` calls back, reads going
/// ahead meanwhile, with no thread waiting. Once `patience` has passed since its first attempt the
/// request runs a last time (`LockPatience.exhausted`), and answers whatever it meets.
public struct RetryLater: Error {
  /// How long a request may wait, from its first attempt.
  public let patience: Double
  /// Calls `resume` once, when the cause may have passed: for the `attempt`th wait (from 0), and at
  /// the latest at `deadline`.
  public let wake:
    @Sendable (_ attempt: Int, _ deadline: DispatchTime, _ resume: @escaping @Sendable () -> Void) -> Void

  public init(
    patience: Double,
    wake:
      @escaping @Sendable (_ attempt: Int, _ deadline: DispatchTime, _ resume: @escaping @Sendable () -> Void) ->
      Void
  ) {
    self.patience = patience
    self.wake = wake
  }
}

/// One request's waits: when its patience ends, and how many it has made.
final class RetryPatience: @unchecked Sendable {
  // Unchecked: used by one job at a time (the scheduler runs a job on one thread until it returns).
  private var deadline: DispatchTime?
  private var attempts = 0

  /// Starts again, for the next member of a batch.
  func reset() {
    deadline = nil
    attempts = 0
  }

  /// What the next attempt may do: retry until the patience of the first wait has passed.
  var now: LockPatience {
    guard let deadline, DispatchTime.now() >= deadline else { return .retries }
    return .exhausted
  }

  /// The scheduler's step for `retry`: wait for its wake-up, at the latest until the patience ends.
  func step(for retry: RetryLater) -> Scheduler.Step {
    let deadline = deadline ?? .now() + retry.patience
    self.deadline = deadline
    let attempt = attempts
    attempts += 1
    return .waits { resume in retry.wake(attempt, deadline, resume) }
  }
}
