import InboxTestSupport
import Posix

@testable import InboxSync

extension SyncQueue {
  /// `enqueue`, waited for on the calling thread.
  func run<T: Sendable>(cancellation: any Cancellable, _ body: @escaping @Sendable () -> Result<T, SyncFailure>)
    -> Result<T, SyncFailure>
  {
    run(cancellation: cancellation, afterWait: { _ in body() })
  }

  /// `enqueue(cancellation:afterWait:completion:)`, waited for on the calling thread.
  func run<T: Sendable>(
    cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void = {},
    afterWait body: @escaping @Sendable (_ waited: Bool) -> Result<T, SyncFailure>
  ) -> Result<T, SyncFailure> {
    waited { done in enqueue(cancellation: cancellation, waiting: waiting, afterWait: body, completion: done) }
  }
}
