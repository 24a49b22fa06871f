import InboxTestSupport
import Posix

@testable import InboxSync

extension SyncQueue {
  /// `enqueue` with a body that answers at once.
  func enqueue<T: Sendable>(
    cancellation: any Cancellable, _ body: @escaping @Sendable () -> Result<T, SyncFailure>,
    completion: @escaping @Sendable (Result<T, SyncFailure>) -> Void
  ) {
    enqueue(cancellation: cancellation, afterWait: { _ in body() }, completion: completion)
  }

  /// `enqueue` with a body that answers at once, learning whether its turn waited (`SyncGate`).
  func enqueue<T: Sendable>(
    cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void = {},
    afterWait body: @escaping @Sendable (_ waited: Bool) -> Result<T, SyncFailure>,
    completion: @escaping @Sendable (Result<T, SyncFailure>) -> Void
  ) {
    enqueue(cancellation: cancellation, waiting: waiting, answering: { waited, done in done(body(waited)) }, completion)
  }

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
