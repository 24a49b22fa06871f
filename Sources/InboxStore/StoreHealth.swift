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

  /// Waits for a running check to end (after it was asked to stop); true when it completed.
  func waitForCheck() -> Bool {
    condition.withLock {
      while checkRunning { condition.wait() }
      return checkCompleted
    }
  }

  /// Throws the store's failure, if it has one.
  func ensureReadable() throws(StoreError) {
    if let found = condition.withLock({ failure }) { throw found }
  }

  /// Waits for a running check, then throws the store's failure, if it has one.
  func ensureWritable() throws(StoreError) {
    let found = condition.withLock {
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
