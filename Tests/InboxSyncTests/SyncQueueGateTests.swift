import Dispatch
import Posix
import Synchronization
import Testing

@testable import InboxSync

/// A queue sharing its runs through a `SyncGate`: a turn waits for the lease without a thread,
/// learns that it waited, releases the lease when done, and a cancel during the wait answers it.
struct SyncQueueGateTests {
  /// A lease held by "another process" until `free()`; grants those who wait, in order.
  final class HeldGate: SyncGate {
    private let state = Mutex<(held: Bool, waiting: [@Sendable (Bool?) -> Void], releases: Int)>((true, [], 0))

    func acquire(
      cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void,
      _ granted: @escaping @Sendable (Bool?) -> Void
    ) {
      let now = state.withLock { state -> Bool in
        if !state.held { return true }
        state.waiting.append(granted)
        return false
      }
      if now { return granted(false) }
      waiting()
      cancellation.onCancel { [self] in
        let mine = state.withLock { state -> Bool in
          guard !state.waiting.isEmpty else { return false }
          state.waiting.removeFirst()
          return true
        }
        if mine { granted(nil) }
      }
    }

    func release() { state.withLock { $0.releases += 1 } }
    var releases: Int { state.withLock { $0.releases } }

    /// The other process releases the lease: the first waiter gets it.
    func free() {
      let next = state.withLock { state -> (@Sendable (Bool?) -> Void)? in
        state.held = false
        return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
      }
      next?(true)
    }
  }

  @Test func aTurnWaitsForTheLeaseAndKnowsItWaited() {
    let queue = SyncQueue()
    let gate = HeldGate()
    queue.share(through: gate)
    let answered = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Bool, SyncFailure>?>(nil)
    queue.enqueue(cancellation: CancellationFlag(), afterWait: { waited in .success(waited) }) { result in
      outcome.withLock { $0 = result }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    gate.free()
    #expect(answered.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(outcome.withLock { $0 } == .success(true))
    #expect(gate.releases == 1)
    // The lease is free now: the next turn is granted at once and did not wait.
    #expect(queue.run(cancellation: CancellationFlag(), afterWait: { .success($0) }) == .success(false))
  }

  @Test func aCancelWhileWaitingForTheLeaseAnswersAtOnce() {
    let queue = SyncQueue()
    let gate = HeldGate()
    queue.share(through: gate)
    let probe = SyncProbe.cancelledWhileWaiting(on: queue)
    #expect(!probe.didRun)
    #expect(gate.releases == 0)
  }
}
