import Synchronization

/// Something long work can be cancelled through: a flag to check between steps, and a way to be
/// woken when it is set, so a wait (for a lock, for a turn) ends at once without polling.
public protocol Cancellable: Sendable {
  var isCancelled: Bool { get }
  /// Runs `body` once when cancelled (at once if already cancelled), on the cancelling thread.
  func onCancel(_ body: @escaping @Sendable () -> Void)
}

/// A cancellation flag with wake-ups, for work that no request owns (the periodic sync, tests).
public final class CancellationFlag: Cancellable {
  private let state = Mutex<(cancelled: Bool, handlers: [@Sendable () -> Void])>((false, []))

  public init() {}

  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  public func cancel() {
    let handlers = state.withLock { state -> [@Sendable () -> Void] in
      guard !state.cancelled else { return [] }
      state.cancelled = true
      defer { state.handlers = [] }
      return state.handlers
    }
    for handler in handlers { handler() }
  }

  public func onCancel(_ body: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.handlers.append(body)
      return false
    }
    if now { body() }
  }
}
