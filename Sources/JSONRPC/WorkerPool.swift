import Posix

/// Runs background requests on threads of their own, at most `limit` at once, in arrival order.
/// Threads, not a shared queue: a worker may block on the network for seconds, and a request
/// waiting for a slot must stay cancellable (the connection answers it -32800 at once).
final class WorkerPool: @unchecked Sendable {
  private let limit: Int
  // Guarded by `condition`: `waiting`, `running`, `unfinished`.
  private let condition = ConditionLock()
  private var waiting: [@Sendable () -> Void] = []
  private var running = 0
  private var unfinished = 0

  init(limit: Int) { self.limit = limit }

  /// Queues a job; it starts as soon as fewer than `limit` jobs run.
  func submit(_ job: @escaping @Sendable () -> Void) {
    condition.withLock {
      unfinished += 1
      if running < limit {
        running += 1
        Threads.spawn { self.work(first: job) }
      } else {
        waiting.append(job)
      }
    }
  }

  /// Waits until every submitted job has finished, at most `seconds`; false on time-out.
  func waitUntilIdle(seconds: Double) -> Bool {
    let deadline = Clock.monotonicNanoseconds + UInt64(seconds * 1e9)
    return condition.withLock {
      while unfinished > 0 {
        if !condition.wait(untilMonotonic: deadline) { return unfinished == 0 }
      }
      return true
    }
  }

  /// A worker thread: runs its job, then takes the next waiting one, until none is left.
  private func work(first: @escaping @Sendable () -> Void) {
    var job = first
    while true {
      job()
      condition.lock()
      unfinished -= 1
      if !waiting.isEmpty {
        job = waiting.removeFirst()
        condition.unlock()
        continue
      }
      running -= 1
      condition.broadcast()
      condition.unlock()
      return
    }
  }
}
