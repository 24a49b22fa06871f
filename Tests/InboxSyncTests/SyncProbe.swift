import Dispatch
import Posix
import Synchronization
import Testing

@testable import InboxSync

/// One queued sync as a test watches it: whether its body ran, and its answer once given.
final class SyncProbe: Sendable {
  private let ran = Atomic<Bool>(false)
  private let answered = DispatchSemaphore(value: 0)
  private let outcome = Mutex<Result<Int, SyncFailure>?>(nil)

  var didRun: Bool { ran.load(ordering: .relaxed) }

  /// The sync's body: notes that it ran and succeeds with 1.
  var body: @Sendable (_ waited: Bool) -> Result<Int, SyncFailure> {
    { [self] _ in
      ran.store(true, ordering: .relaxed)
      return .success(1)
    }
  }

  var completion: @Sendable (Result<Int, SyncFailure>) -> Void {
    { [self] result in
      outcome.withLock { $0 = result }
      answered.signal()
    }
  }

  /// The answer, once given within `wait`; nil when none came.
  func answer(within wait: DispatchTimeInterval) -> Result<Int, SyncFailure>? {
    guard answered.wait(timeout: .now() + wait) == .success else { return nil }
    return outcome.withLock { $0 }
  }

  /// Queues a sync on `queue`, which must keep it waiting, checks it is not answered, cancels it,
  /// and checks it is answered `.cancelled` at once.
  static func cancelledWhileWaiting(on queue: SyncQueue) -> SyncProbe {
    let flag = CancellationFlag()
    let probe = SyncProbe()
    queue.enqueue(cancellation: flag, afterWait: probe.body, completion: probe.completion)
    #expect(probe.answer(within: .milliseconds(100)) == nil)
    flag.cancel()
    #expect(probe.answer(within: .seconds(5)) == .failure(SyncFailure(.cancelled)))
    return probe
  }
}
