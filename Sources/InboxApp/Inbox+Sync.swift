import InboxCore
import InboxSync
import Posix

/// What a sync run reports while it runs. A sync is the one use case that streams: its merge
/// commits part-way through a run that may still fail (a push after it), so the feed change is
/// reported when it commits, not with the result.
public struct SyncObserver: Sendable {
  public var progress: @Sendable (SyncProgress) -> Void
  /// Called once the merge has committed, when it changed the feed.
  public var changed: @Sendable (FeedChange) -> Void
  public var warnings: @Sendable ([Warning]) -> Void
  /// Notes for the log.
  public var log: @Sendable (String) -> Void

  public init(
    progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
    changed: @escaping @Sendable (FeedChange) -> Void = { _ in },
    warnings: @escaping @Sendable ([Warning]) -> Void = { _ in }, log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.progress = progress
    self.changed = changed
    self.warnings = warnings
    self.log = log
  }
}

extension Inbox {
  /// One sync (docs/sync.md#what-a-sync-does): push every queued status change, fetch the inbox
  /// unless the last fetch is more recent than the minimum interval (`force` fetches anyway), merge,
  /// push again. `respectBackoff` (the periodic sync) waits for each change's retry time; a host's
  /// explicit sync does not. Queued behind the syncs before it without holding the calling thread:
  /// `completion` gets the outcome once the sync has run (`SyncFailure` with what was done before
  /// the failure), or at once when it was cancelled before its turn; a run waiting or running stops
  /// once `cancellation` is set.
  public func sync(
    force: Bool = false, respectBackoff: Bool = false, observer: SyncObserver = SyncObserver(),
    cancellation: any Cancellable, completion: @escaping @Sendable (Result<SyncReport, SyncFailure>) -> Void
  ) {
    sync.sync(
      force: force, respectBackoff: respectBackoff, events: Self.events(observer), cancellation: cancellation,
      completion: completion)
  }

  private static func events(_ observer: SyncObserver) -> Synchronizer.Events {
    Synchronizer.Events(
      progress: observer.progress,
      merged: { plan in
        let change = FeedChange(
          .sync, added: plan.added, updated: plan.updated, removed: plan.removed + plan.expired)
        if !change.isEmpty { observer.changed(change) }
      },
      warnings: observer.warnings, log: observer.log)
  }
}
