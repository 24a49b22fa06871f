/// What one sync did: the `feed.sync` result (docs/sync.md#what-a-sync-does).
public struct SyncReport: Sendable, Equatable {
  /// Messages the fetch added, updated, removed (not listed any more, or deleted elsewhere) and that
  /// left because they expired: ids, in the order the merge met them.
  public var added: [String] = []
  public var updated: [String] = []
  public var removed: [String] = []
  public var expired: [String] = []
  /// Status changes the backend confirmed during this sync.
  public var pushed = 0
  /// Status changes tried and not confirmed (they stay queued, retried later).
  public var failed = 0
  /// Status changes still queued after the sync, every account's.
  public var pending = 0
  /// The fetch was skipped: the last one is more recent than the minimum interval (`force` skips the check).
  public var throttled = false
  /// Why the last failed push failed, when one did.
  public var pushError: SyncError?

  public init() {}
}

/// The stage a sync is in, for `sync.progress {stage, done?, total?}`.
public struct SyncProgress: Sendable, Equatable {
  public enum Stage: String, Sendable {
    /// Waiting for another process's sync on the same store to end (its lease).
    case wait
    case push, fetch, merge, done
  }

  public var stage: Stage
  public var done: Int?
  public var total: Int?

  public init(_ stage: Stage, done: Int? = nil, total: Int? = nil) {
    self.stage = stage
    self.done = done
    self.total = total
  }
}

/// A sync that did not finish: the error, and what it did before (changes it pushed stay pushed).
public struct SyncFailure: Error, Sendable, Equatable, CustomStringConvertible {
  public var error: SyncError
  public var partial: SyncReport

  public init(_ error: SyncError, partial: SyncReport = SyncReport()) {
    self.error = error
    self.partial = partial
  }

  public var description: String { error.description }
}
