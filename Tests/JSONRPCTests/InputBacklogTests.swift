import Dispatch
import Synchronization
import Testing

@testable import JSONRPC

/// The reader waits while frames in flight hold the limit, and goes on as soon as one finishes.
struct InputBacklogTests {
  @Test func aFrameWaitsForRoomAndOneFrameAlwaysPasses() {
    let backlog = InputBacklog(limit: 100)
    backlog.acquire(500)  // larger than the limit, but nothing is in flight: let through
    let acquired = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      backlog.acquire(10)
      acquired.store(true, ordering: .sequentiallyConsistent)
      done.signal()
    }
    #expect(done.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    let early = acquired.load(ordering: .sequentiallyConsistent)
    #expect(!early)
    backlog.release(500)
    #expect(done.wait(timeout: .now() + .seconds(5)) == .success)
    backlog.release(10)
  }
}
