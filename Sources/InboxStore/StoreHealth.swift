import Dispatch
import Synchronization

/// Whether the store may be read and written: the integrity check an unclean start runs in the
/// background, and the damage or loss of the file met at any time, decide it.
///
/// Once damaged or lost the store stays so for the life of the process: every later call fails with
/// the same error, and nothing more is written to the file.
final class StoreHealth: Sendable {
  private struct State {
    var checking = false
    var checkCompleted = true
    var failure: StoreError?
    var closing = false
  }

  private let state = Mutex(State())
  /// Entered while a check runs: `close` waits on it.
  private let running = DispatchGroup()
  /// The check, until it starts: at its time, or at once when a write wants its verdict or the
  /// store closes (`startCheckNow`).
  private let heldCheck = Mutex<(@Sendable () -> Void)?>(nil)
  /// Told when a check ends: the writes refused meanwhile may go (`InboxStore.whenWriterFreed`).
  private let checkEnded = Mutex<(@Sendable () -> Void)?>(nil)

  /// A background check starts: writes are refused until its verdict (`refusesWrite`).
  func beginCheck() {
    running.enter()
    state.withLock {
      $0.checking = true
      $0.checkCompleted = false
    }
  }

  /// The check ended: `problem` is its verdict (nil: healthy), `completed` false when it was stopped.
  func endCheck(problem: StoreError?, completed: Bool) {
    state.withLock {
      if let problem, $0.failure == nil { $0.failure = problem }
      $0.checking = false
      $0.checkCompleted = completed
    }
    running.leave()
    checkEnded.withLock { $0 }?()
  }

  /// `ended` is called each time a check ends.
  func whenCheckEnds(_ ended: @escaping @Sendable () -> Void) { checkEnded.withLock { $0 = ended } }

  /// True while a background check runs, which then starts at once: a write wants its verdict, and
  /// is made again when the check ends (`whenCheckEnds`) rather than waiting for it.
  func refusesWrite() -> Bool {
    guard isChecking else { return false }
    startCheckNow()
    return true
  }

  /// Starts `check` on a queue of its own `delay` from now, or sooner when a write waits for its
  /// verdict or the store closes, so the first replies of a start do not share the machine with it.
  /// `check` learns whether the store is closing (it then ends at once).
  func startCheck(after delay: Int, _ check: @escaping @Sendable (_ closing: Bool) -> Void) {
    heldCheck.withLock { $0 = { [self] in check(state.withLock { $0.closing }) } }
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
      startCheckNow()
    }
  }

  /// Starts the check held back, if it has not started.
  private func startCheckNow() {
    guard
      let check = heldCheck.withLock({ held in
        defer { held = nil }; return held
      })
    else { return }
    DispatchQueue.global(qos: .utility).async(execute: check)
  }

  /// The store closes: a held-back check starts now, and ends at once.
  func cancelCheck() {
    state.withLock { $0.closing = true }
    startCheckNow()
  }

  /// Waits for a running check to end (after it was asked to stop); true when it completed.
  func waitForCheck() -> Bool {
    running.wait()
    return state.withLock { $0.checkCompleted }
  }

  /// True while a background check runs (writes are refused meanwhile).
  var isChecking: Bool { state.withLock { $0.checking } }

  /// Throws the store's failure, if it has one.
  func ensureReadable() throws(StoreError) {
    if let found = state.withLock({ $0.failure }) { throw found }
  }

  /// Records what a call met: damage (SQLite found a malformed page) or a file that is gone.
  func record(_ error: any Error) {
    guard let error = error as? StoreError, error.kind == .corrupt || error.kind == .fileGone else { return }
    state.withLock {
      if $0.failure == nil { $0.failure = error.asDamage }
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
