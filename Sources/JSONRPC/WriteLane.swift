import Dispatch
import Synchronization

/// `write` requests: one at a time, in arrival order, off the reader. A write queued here is a
/// closure held, not a thread; so is one that waits for something outside the process (another
/// process's lock: `RetryLater`): its job says so (`Step.waits`), the lane keeps it at its head,
/// lets reads go ahead, and runs it again when the job's wake-up calls back. Reads after a write
/// wait for the lane to empty, or for its write to wait outside, whichever comes first: both are
/// events that wake the waiting reader, nothing is asked on a timer.
final class WriteLane: Sendable {
  /// What a job did when it returned.
  enum Step: Sendable {
    case finished
    /// It waits for something outside the process: `wake` calls `resume` once it may have passed,
    /// and the lane then runs the same job again, ahead of the writes queued behind it.
    case waits(_ wake: @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void)
    /// It goes on elsewhere and says its next step when it has one (a deferred method's reply):
    /// the lane stays its, reads still wait for it, and no thread waits with it.
    case later(_ next: @Sendable (_ step: @escaping @Sendable (Step) -> Void) -> Void)
  }

  /// A write, run until it finishes or waits; run again after a wait.
  typealias Job = @Sendable () -> Step

  private struct State {
    var queued: [Job] = []
    /// A job runs or waits: the queued ones wait for it.
    var active = false
    /// The active job waits outside the process.
    var waitsOutside = false
    var wakeUps: [DispatchSemaphore] = []

    var letsReadsGo: Bool { !active || waitsOutside }
  }

  private let queue = DispatchQueue(label: "inbox-rpc.writes")
  private let state = Mutex(State())
  private let unfinished = DispatchGroup()

  /// Queues a job behind the writes before it.
  func submit(_ job: @escaping Job) {
    unfinished.enter()
    let startsNow = state.withLock { state -> Bool in
      guard state.active else {
        state.active = true
        return true
      }
      state.queued.append(job)
      return false
    }
    if startsNow { queue.async { [self] in run(job) } }
  }

  /// Runs `job` on the calling thread when no write is queued, running or waiting; false (not
  /// run) otherwise. A write whose writer is free so costs no thread hand-off; one that has to wait
  /// after all returns `.waits`, and the calling thread goes on with its own work.
  func runHereIfIdle(_ job: @escaping Job) -> Bool {
    let taken = state.withLock { state -> Bool in
      guard !state.active else { return false }
      state.active = true
      return true
    }
    guard taken else { return false }
    unfinished.enter()
    run(job)
    return true
  }

  /// True when no write is queued, running or waiting.
  var isIdle: Bool { state.withLock { !$0.active } }

  private func run(_ job: @escaping Job) { take(job(), of: job) }

  private func take(_ step: Step, of job: @escaping Job) {
    switch step {
    case .later(let next):
      next { [self] step in take(step, of: job) }
    case .finished:
      let next = update { state -> Job? in
        guard !state.queued.isEmpty else {
          state.active = false
          return nil
        }
        return state.queued.removeFirst()
      }
      // Left once the lane says so: a wait for the lane to empty sees it idle.
      unfinished.leave()
      if let next { queue.async { [self] in run(next) } }
    case .waits(let wake):
      update { $0.waitsOutside = true }
      wake { [self] in
        update { $0.waitsOutside = false }
        queue.async { [self] in run(job) }
      }
    }
  }

  /// Returns once reads may go ahead of the lane: it is empty, or its write waits outside.
  func awaitTurnForReads() {
    let wakeUp = state.withLock { state -> DispatchSemaphore? in
      guard !state.letsReadsGo else { return nil }
      let wakeUp = DispatchSemaphore(value: 0)
      state.wakeUps.append(wakeUp)
      return wakeUp
    }
    wakeUp?.wait()
  }

  /// Waits until every submitted write has finished, at most until `deadline`; false on time-out.
  func waitUntilIdle(until deadline: DispatchTime) -> Bool {
    unfinished.wait(timeout: deadline) == .success
  }

  /// Changes the state and wakes the reads waiting, if they may go now.
  @discardableResult
  private func update<T>(_ change: (inout State) -> T) -> T {
    let (result, woken) = state.withLock { state -> (T, [DispatchSemaphore]) in
      let result = change(&state)
      guard state.letsReadsGo else { return (result, []) }
      defer { state.wakeUps = [] }
      return (result, state.wakeUps)
    }
    for wakeUp in woken { wakeUp.signal() }
    return result
  }
}
