import Dispatch
import Posix
import Synchronization

/// One sync at a time, in arrival order: a sync asked for while another runs is a closure queued
/// on a serial queue, not a thread waiting for its turn. One cancelled before its turn is answered
/// at once (woken by the cancel, no polling) and skipped when its turn comes. With a `SyncGate`,
/// a turn also waits for the lease other processes on the store take: the queue is suspended
/// meanwhile, and the run goes ahead on a queue of its own once the gate grants it.
final class SyncQueue: Sendable {
  /// One queued sync's turn: taken by the queue when it comes, or given up by a cancel first.
  private final class Turn: Sendable {
    private enum State { case queued, running, abandoned }
    private let state = Mutex(State.queued)

    /// True for the first of the queue and the cancel to ask, and only if the turn has not come yet
    /// (a running sync answers its cancel itself).
    func claim(running: Bool) -> Bool {
      state.withLock { state in
        guard state == .queued else { return false }
        state = running ? .running : .abandoned
        return true
      }
    }
  }

  private let queue = DispatchQueue(label: "inbox-rpc.sync")
  /// Where a run granted by the gate after a wait runs (the gate calls back from its own queue).
  private let runner = DispatchQueue(label: "inbox-rpc.sync-run")
  private let gate = Mutex<(any SyncGate)?>(nil)

  /// Makes every later turn wait for `gate` too.
  func share(through gate: any SyncGate) { self.gate.withLock { $0 = gate } }
  /// Syncs queued or running: a sync asked for when there are none cannot be overtaken by a cancel.
  private let unfinished = Atomic<Int>(0)

  /// Runs `body` after the syncs before it, and hands its outcome to `completion`; or hands
  /// `.cancelled` at once when `cancellation` is set before its turn. `body` learns whether its turn
  /// waited for another process's run (`SyncGate`; `waiting` is told when the turn finds the gate's
  /// lease held), and hands its outcome to `done` when it has one, from any thread: the turn is held
  /// until then (the queue suspended), and no thread waits with it.
  func enqueue<T: Sendable>(
    cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void = {},
    answering body:
      @escaping @Sendable (_ waited: Bool, _ done: @escaping @Sendable (Result<T, SyncFailure>) -> Void)
      -> Void,
    _ completion: @escaping @Sendable (Result<T, SyncFailure>) -> Void
  ) {
    let turn = Turn()
    if unfinished.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
      cancellation.onCancel {
        if turn.claim(running: false) { completion(.failure(SyncFailure(.cancelled))) }
      }
    }
    queue.async { [self] in
      guard turn.claim(running: true) else { return finished() }
      queue.suspend()
      let end: @Sendable (Result<T, SyncFailure>) -> Void = { [self] result in
        completion(result)
        finished()
        queue.resume()
      }
      guard let gate = gate.withLock({ $0 }) else {
        if cancellation.isCancelled { return end(.failure(SyncFailure(.cancelled))) }
        return body(false, end)
      }
      gate.acquire(cancellation: cancellation, waiting: waiting) { [self] waited in
        runner.async {
          guard let waited, !cancellation.isCancelled else {
            if waited != nil { gate.release() }
            return end(.failure(SyncFailure(.cancelled)))
          }
          body(waited) { result in
            gate.release()
            end(result)
          }
        }
      }
    }
  }

  private func finished() { unfinished.subtract(1, ordering: .sequentiallyConsistent) }
}
