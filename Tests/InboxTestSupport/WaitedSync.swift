import Dispatch
import InboxApp
import InboxSync
import Posix
import Synchronization

// Syncs waited for on the calling thread, as tests want them: the product has only the callback
// forms, which hold no thread while a sync waits its turn.

extension Synchronizer {
  /// `sync(…, completion:)`, waited for.
  public func sync(
    force: Bool = false, respectBackoff: Bool = false, events: Events = Events(),
    cancellation: any Cancellable = CancellationFlag()
  ) throws(SyncFailure) -> SyncReport {
    try waited { done in
      sync(force: force, respectBackoff: respectBackoff, events: events, cancellation: cancellation, completion: done)
    }.get()
  }
}

extension Inbox {
  /// `sync(…, completion:)`, waited for.
  public func sync(
    force: Bool = false, respectBackoff: Bool = false, observer: SyncObserver = SyncObserver(),
    cancellation: any Cancellable = CancellationFlag()
  ) throws(SyncFailure) -> SyncReport {
    try waited { done in
      sync(
        force: force, respectBackoff: respectBackoff, observer: observer, cancellation: cancellation, completion: done)
    }.get()
  }
}

/// What `start` hands its callback, waited for on the calling thread.
public func waited<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) -> T {
  let outcome = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  start { value in
    outcome.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  // Signalled once the value is put.
  guard let value = outcome.withLock({ $0 }) else { fatalError("a callback signalled without its value") }
  return value
}
