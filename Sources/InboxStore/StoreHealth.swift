import Posix

/// Whether the store may be read and written: the integrity check an unclean start runs in the
/// background, and the damage or loss of the file met at any time, decide it.
///
/// Once damaged or lost the store stays so for the life of the process: every later call fails with
/// the same error, and nothing more is written to the file.
final class StoreHealth: @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = ConditionLock()
  private var checking = false
  private var checkRunning = false
  private var checkCompleted = true
  private var failure: StoreError?
  private var checkWanted = false
  private var closing = false

  /// A background check starts: writes wait for its verdict.
  func beginCheck() {
    condition.withLock {
      checking = true
      checkRunning = true
      checkCompleted = false
    }
  }

  /// The check ended: `problem` is its verdict (nil: healthy), `completed` false when it was stopped.
  func endCheck(problem: StoreError?, completed: Bool) {
    condition.withLock {
      if let problem, failure == nil { failure = problem }
      checking = false
      checkRunning = false
      checkCompleted = completed
      condition.broadcast()
    }
  }

  /// Holds the check back until `delay` has passed or a write waits for it, so the first replies of
  /// a start do not share the machine with it; false when the store closes first.
  func waitToStartCheck(milliseconds delay: UInt64) -> Bool {
    let deadline = Clock.monotonicNanoseconds + delay * 1_000_000
    return condition.withLock {
      while !checkWanted && condition.wait(untilMonotonic: deadline) {}
      return !closing
    }
  }

  /// The store closes: a held-back check does not start.
  func cancelCheck() {
    condition.withLock {
      checkWanted = true
      closing = true
      condition.broadcast()
    }
  }

  /// Waits for a running check to end (after it was asked to stop); true when it completed.
  func waitForCheck() -> Bool {
    condition.withLock {
      while checkRunning { condition.wait() }
      return checkCompleted
    }
  }

  /// True while a background check runs (writes wait for it).
  var isChecking: Bool { condition.withLock { checking } }

  /// Throws the store's failure, if it has one.
  func ensureReadable() throws(StoreError) {
    if let found = condition.withLock({ failure }) { throw found }
  }

  /// Waits for a running check, then throws the store's failure, if it has one.
  func ensureWritable() throws(StoreError) {
    let found = condition.withLock {
      if checking {
        checkWanted = true
        condition.broadcast()
      }
      while checking { condition.wait() }
      return failure
    }
    if let found { throw found }
  }

  /// Records what a call met: damage (SQLite found a malformed page) or a file that is gone.
  func record(_ error: any Error) {
    guard let error = error as? StoreError, error.kind == .corrupt || error.kind == .fileGone else { return }
    condition.withLock {
      if failure == nil { failure = error.asDamage }
    }
  }
}

extension StoreError {
  /// The error every call gets once the store is known to be damaged.
  var asDamage: StoreError {
    guard kind == .corrupt else { return self }
    return StoreError(
      kind: .corrupt, code: code,
      message: "the store is damaged (\(message)); nothing more is written to it: restore or remove the file")
  }
}
