import Dispatch
import Synchronization

/// Runs background requests off the reader, at most `limit` at once, starting in arrival order.
/// A job beyond the limit is a closure queued, not a thread waiting for a slot: the job that
/// finishes starts the next one. A job says it has finished (`done`), so one that answers later (a
/// deferred method) holds its slot, not a thread. A request waiting for a slot stays cancellable (the connection
/// answers it -32800 at once, and the job then returns without work). Workers run on a concurrent
/// queue: Dispatch gives a worker that blocks on the network a thread of its own.
final class WorkerPool: Sendable {
  private struct State {
    var running = 0
    var queued: [Job] = []
  }

  /// A job: it calls `done` once, when it has finished, from any thread.
  typealias Job = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

  private let limit: Int
  private let state = Mutex(State())
  private let workers = DispatchQueue(label: "inbox-rpc.workers", attributes: .concurrent)
  private let unfinished = DispatchGroup()

  init(limit: Int) { self.limit = limit }

  /// Queues a job; it starts as soon as fewer than `limit` jobs run.
  func submit(_ job: @escaping Job) {
    unfinished.enter()
    let startsNow = state.withLock { state -> Bool in
      guard state.running < limit else {
        state.queued.append(job)
        return false
      }
      state.running += 1
      return true
    }
    if startsNow { start(job) }
  }

  private func start(_ job: @escaping Job) {
    workers.async { [self] in job { [self] in finished() } }
  }

  private func finished() {
    let next = state.withLock { state -> Job? in
      guard !state.queued.isEmpty else {
        state.running -= 1
        return nil
      }
      return state.queued.removeFirst()
    }
    unfinished.leave()
    if let next { start(next) }
  }

  /// Waits until every submitted job has finished, at most until `deadline`; false on time-out.
  func waitUntilIdle(until deadline: DispatchTime) -> Bool {
    unfinished.wait(timeout: deadline) == .success
  }
}
