import Dispatch
import Foundation
import Posix
import Synchronization
import Testing

@testable import InboxSync

/// One sync at a time: waiters take turns in arrival order, and a cancelled waiter leaves at once.
struct SyncGateTests {
  @Test func aCancelledWaiterLeavesTheLineAtOnce() {
    let gate = SyncGate()
    #expect(gate.enter(CancellationFlag()))
    let flag = CancellationFlag()
    let entered = Mutex<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let result = gate.enter(flag)
      entered.withLock { $0 = result }
      done.signal()
    }
    // Still waiting: the gate is held.
    #expect(done.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    flag.cancel()
    #expect(done.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(entered.withLock { $0 } == false)
    gate.leave()
    // The cancelled waiter took no turn: the gate is free.
    #expect(gate.enter(CancellationFlag()))
    gate.leave()
  }

  @Test func leavingHandsTheTurnToTheNextInLine() {
    let gate = SyncGate()
    #expect(gate.enter(CancellationFlag()))
    let order = Mutex<[Int]>([])
    let group = DispatchGroup()
    for waiter in 1...3 {
      group.enter()
      DispatchQueue.global().async {
        if gate.enter(CancellationFlag()) {
          order.withLock { $0.append(waiter) }
          gate.leave()
        }
        group.leave()
      }
      // Each waiter queues before the next starts, so the arrival order is known.
      while gate.waitingCount < waiter { usleep(1_000) }
    }
    gate.leave()
    #expect(group.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(order.withLock { $0 } == [1, 2, 3])
  }
}
