/// Read and opened flags the host's store knows before the backend does, so a card reflects them at once.
///
/// The card's `read` is `status >= 2 || read || opened` and `actionPerformed` is `status >= 3 || opened`:
/// local state can only raise the backend status, never lower it (statuses never go down, docs/engine.md#statuses).
public struct LocalState: Sendable, Hashable {
  /// The user has read the message locally.
  public var read: Bool
  /// The user has tapped the message (performed its action) locally; implies read.
  public var opened: Bool
  /// A host reported the message shown (`feed.seen`, `feed.markAllSeen`): kept in the store alone.
  public var seen: Bool

  /// Builds a local state; every flag defaults to false.
  public init(read: Bool = false, opened: Bool = false, seen: Bool = false) {
    self.read = read
    self.opened = opened
    self.seen = seen
  }
}
