import Posix
import Synchronization

/// A flag a long handler polls; `$/cancelRequest` sets it from the reader thread. A handler that
/// waits (for a turn, a lock) asks to be woken instead (`onCancel`).
public final class CancellationToken: Cancellable {
  private let cancelled = Atomic<Bool>(false)
  private let wakeUps = CancellationFlag()
  private let started = Atomic<Bool>(false)
  private let replied = Atomic<Bool>(false)

  public init() {}

  /// The token of requests run where the host's input is read (a read, or a write whose writer is
  /// free): no cancel is read while they work, and one shared token saves an allocation per request.
  static let inline = CancellationToken()

  /// Marks the work as begun; a cancel after this is answered by the work itself.
  func markStarted() { started.store(true, ordering: .sequentiallyConsistent) }

  var hasStarted: Bool { started.load(ordering: .sequentiallyConsistent) }

  /// True exactly once: whoever claims the reply (the worker, or a cancel that came first) writes it.
  func claimReply() -> Bool {
    replied.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
  }

  public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  public func cancel() {
    cancelled.store(true, ordering: .releasing)
    wakeUps.cancel()
  }

  public func onCancel(_ body: @escaping @Sendable () -> Void) { wakeUps.onCancel(body) }

  /// Throws `CancellationError` once cancelled; call it between stages of long work.
  public func check() throws(CancellationError) {
    if isCancelled { throw CancellationError() }
  }
}
