import Dispatch
import Synchronization

/// `serial` requests: one at a time, in arrival order, off the reader (a write that may wait for
/// another process's lock). Inline requests after one wait for the lane to empty, unless the work
/// on it waits on someone else, so a stalled write never holds up a read or a ping.
final class SerialLane: Sendable {
  private let pool = WorkerPool(limit: 1)
  private let pending = Atomic<Int>(0)
  private let emptied = DispatchGroup()

  var isIdle: Bool { pending.load(ordering: .sequentiallyConsistent) == 0 }

  func submit(_ job: @escaping @Sendable () -> Void) {
    pending.add(1, ordering: .sequentiallyConsistent)
    emptied.enter()
    pool.submit { [self] in
      job()
      pending.subtract(1, ordering: .sequentiallyConsistent)
      emptied.leave()
    }
  }

  /// Returns once the lane is empty (woken as it empties), or once `isWaiting` says its work
  /// waits on another process: that is asked each millisecond, as the store has no way to say so.
  func awaitIdle(unless isWaiting: () -> Bool) {
    while !isIdle && !isWaiting() { _ = emptied.wait(timeout: .now() + .milliseconds(1)) }
  }

  func waitUntilIdle(seconds: Double) -> Bool { pool.waitUntilIdle(seconds: seconds) }
}
