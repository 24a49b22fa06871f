import InboxCore
import InboxStore

/// How a use case changed the feed, for the host to hear once the change has committed (the RPC
/// front sends it as `feed.changed`). Ids are message ids, in the order the change met them.
public struct FeedChange: Sendable, Hashable {
  /// Why the feed changed.
  public enum Reason: String, Sendable, Hashable {
    case ingested, read, opened, dismissed, expired, config, sync
    /// Rows reported shown (`feed.seen`, `feed.markAllSeen`): their cards' `seen`, and `unseen`.
    case seen
    /// Committed by another process on the same store (`StoreFollower`).
    case elsewhere
  }

  public var reason: Reason
  public var added: [String]
  public var updated: [String]
  public var removed: [String]
  /// The feed's counts (no filter) once the change has committed, so a badge needs no further
  /// call; set by `Inbox.counted(_:)` when the change is reported, nil before.
  public var counts: FeedCounts?

  public init(_ reason: Reason, added: [String] = [], updated: [String] = [], removed: [String] = []) {
    self.reason = reason
    self.added = added
    self.updated = updated
    self.removed = removed
  }

  /// True when no message was added, updated or removed.
  public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }
}

/// What a use case did besides its value: the feed changes it committed and the engine's warnings.
public struct Effects: Sendable, Hashable {
  public var changes: [FeedChange] = []
  public var warnings: [Warning] = []

  public init(changes: [FeedChange] = [], warnings: [Warning] = []) {
    self.changes = changes
    self.warnings = warnings
  }

  /// Records `change` unless it changed nothing; a `config` change always counts (every card may
  /// look different under new attributes).
  mutating func record(_ change: FeedChange) {
    if !change.isEmpty || change.reason == .config { changes.append(change) }
  }
}
