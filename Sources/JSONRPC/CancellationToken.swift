import Synchronization

/// A flag a long handler polls; `$/cancelRequest` sets it from the reader thread.
public final class CancellationToken: Sendable {
  private let cancelled = Atomic<Bool>(false)

  public init() {}

  public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  public func cancel() { cancelled.store(true, ordering: .releasing) }

  /// Throws `CancellationError` once cancelled; call it between stages of long work.
  public func check() throws(CancellationError) {
    if isCancelled { throw CancellationError() }
  }
}
