import Dispatch
import Foundation
import Posix
import Synchronization
import Testing

@testable import InboxSync

/// One sync at a time: queued syncs run in arrival order, hold no thread while they wait, and a
/// cancelled one is answered at once and never runs.
struct SyncQueueTests {
  /// A queue whose first sync runs until the semaphore returned is signalled.
  private func busyQueue() -> (SyncQueue, release: DispatchSemaphore) {
    let queue = SyncQueue()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let running: @Sendable () -> Result<Int, SyncFailure> = {
      started.signal()
      release.wait()
      return .success(0)
    }
    queue.enqueue(cancellation: CancellationFlag(), running) { _ in }
    started.wait()
    return (queue, release)
  }

  @Test func aCancelledSyncIsAnsweredAtOnceAndNeverRuns() {
    let (queue, release) = busyQueue()
    // Queued behind the running sync: not answered until cancelled.
    let probe = SyncProbe.cancelledWhileWaiting(on: queue)
    release.signal()
    // The queue drains: a sync after both runs, and the cancelled one never did.
    #expect(queue.run(cancellation: CancellationFlag()) { .success(2) } == .success(2))
    #expect(!probe.didRun)
  }

  @Test func queuedSyncsRunInArrivalOrderWithoutAThreadEach() {
    let (queue, release) = busyQueue()
    let order = Mutex<[Int]>([])
    let group = DispatchGroup()
    // Queued from this one thread, each call returning at once: none of them holds a thread.
    for sync in 1...50 {
      group.enter()
      queue.enqueue(cancellation: CancellationFlag(), { .success(sync) }) { result in
        if case .success(let value) = result { order.withLock { $0.append(value) } }
        group.leave()
      }
    }
    release.signal()
    #expect(group.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(order.withLock { $0 } == Array(1...50))
  }
}
