import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// Background jobs: at most `limit` at once, the rest queued as closures and started in arrival
/// order by the jobs that finish; no thread waits for a slot.
struct WorkerPoolTests {
  @Test func jobsBeyondTheLimitWaitAsClosuresAndStartInArrivalOrder() {
    let pool = WorkerPool(limit: 2)
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let order = Mutex<[Int]>([])
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)
    for index in 0..<6 {
      pool.submit { done in
        defer { done() }
        let now = running.add(1, ordering: .sequentiallyConsistent).newValue
        _ = most.max(now, ordering: .sequentiallyConsistent)
        order.withLock { $0.append(index) }
        started.signal()
        release.wait()
        running.subtract(1, ordering: .sequentiallyConsistent)
      }
    }
    // Two start; the third does not until one of them ends.
    #expect(started.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(started.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(started.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    #expect(order.withLock { Set($0) } == [0, 1])
    // Each job that ends starts the next queued one.
    for _ in 2..<6 {
      release.signal()
      #expect(started.wait(timeout: .now() + .seconds(5)) == .success)
    }
    for _ in 0..<2 { release.signal() }
    #expect(pool.waitUntilIdle(until: .now() + 5))
    #expect(order.withLock { Array($0.dropFirst(2)) } == [2, 3, 4, 5])
    let highest = most.load(ordering: .sequentiallyConsistent)
    #expect(highest <= 2)
  }
}
