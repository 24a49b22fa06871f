import Dispatch

/// Runs background requests off the reader, at most `limit` at once, starting in arrival order.
/// A job admitted waits for a slot on a serial queue of its own, so the reader never waits; a
/// request waiting for a slot stays cancellable (the connection answers it -32800 at once, and the
/// job then returns without work). Workers run on a concurrent queue: Dispatch gives a worker that
/// blocks on the network a thread of its own.
final class WorkerPool: Sendable {
  private let slots: DispatchSemaphore
  private let admission = DispatchQueue(label: "inbox-rpc.admission")
  private let workers = DispatchQueue(label: "inbox-rpc.workers", attributes: .concurrent)
  private let unfinished = DispatchGroup()

  init(limit: Int) { slots = DispatchSemaphore(value: limit) }

  /// Queues a job; it starts as soon as fewer than `limit` jobs run.
  func submit(_ job: @escaping @Sendable () -> Void) {
    unfinished.enter()
    admission.async { [slots, workers, unfinished] in
      slots.wait()
      workers.async {
        job()
        slots.signal()
        unfinished.leave()
      }
    }
  }

  /// Waits until every submitted job has finished, at most until `deadline`; false on time-out.
  func waitUntilIdle(until deadline: DispatchTime) -> Bool {
    unfinished.wait(timeout: deadline) == .success
  }
}
