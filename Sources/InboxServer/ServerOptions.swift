import InboxCore
import InboxStore

/// Engine-level options the executable passes in.
public struct ServerOptions: Sendable {
  /// Registers the JSON-RPC specification's example methods and test helpers (conformance tests only).
  public var testMethods = false
  /// Seeds an empty store with the sample feed kept in the repo (every card kind, a pinned message,
  /// buttons of each action, a few degradations).
  public var sampleFeed = false
  /// Pins the clock (unix seconds) from the start, before the sample feed is seeded: for tests
  /// and recorded examples that must repeat exactly.
  public var pinnedClock: Int64?

  public init() {}
}
