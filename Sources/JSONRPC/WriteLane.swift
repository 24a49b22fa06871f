import Dispatch
import Synchronization

/// `write` requests: one at a time, in arrival order, off the reader. A request queued here is a
/// closure on a serial queue, not a thread. Reads after a write wait for the lane to empty, or for
/// the store's writer to say it waits for another process's lock (`writerWaits`), whichever comes
/// first: both are events that wake the waiting reader, nothing is asked on a timer.
final class WriteLane: Sendable {
  private struct State {
    var pending = 0
    var writerWaits = false
    /// A write runs on the thread that reads (`runHere`).
    var runsHere = false
    var wakeUps: [DispatchSemaphore] = []

    var letsReadsGo: Bool { pending == 0 || writerWaits }
  }

  private let queue = DispatchQueue(label: "inbox-rpc.writes")
  private let state = Mutex(State())
  private let unfinished = DispatchGroup()

  func submit(_ job: @escaping @Sendable () -> Void) {
    state.withLock { $0.pending += 1 }
    unfinished.enter()
    queue.async { [self] in
      job()
      update { $0.pending -= 1 }
      unfinished.leave()
    }
  }

  /// True when no write is queued or running.
  var isIdle: Bool { state.withLock { $0.pending == 0 } }

  /// True while a write runs on the thread that reads (`runHere`).
  var runsHere: Bool { state.withLock { $0.runsHere } }

  /// Runs `job` on the calling thread, holding the lane as a queued write would: writes submitted
  /// meanwhile run after it. For a write whose writer is free, so it costs no thread hand-off; if
  /// it has to wait after all, `Connection.writerWaits` hands the reading to another thread.
  func runHere(_ job: () -> Void) {
    state.withLock {
      $0.pending += 1
      $0.runsHere = true
    }
    unfinished.enter()
    queue.sync { job() }
    update {
      $0.pending -= 1
      $0.runsHere = false
    }
    unfinished.leave()
  }

  /// The store's writer started (true) or stopped (false) waiting for another process's lock.
  func writerWaits(_ waiting: Bool) {
    update { $0.writerWaits = waiting }
  }

  /// Returns once reads may go ahead of the lane: it is empty, or its writer waits on someone else.
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

  private func update(_ change: (inout State) -> Void) {
    let woken = state.withLock { state -> [DispatchSemaphore] in
      change(&state)
      guard state.letsReadsGo else { return [] }
      defer { state.wakeUps = [] }
      return state.wakeUps
    }
    for wakeUp in woken { wakeUp.signal() }
  }
}
