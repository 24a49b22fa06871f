import InboxApp
import InboxContract
import InboxStore
import InboxSync
import JSON
import JSONRPC

/// The JSON-RPC face: the method registry, from one list, so `initialize`, `rpc.discover` and
/// dispatch cannot drift. Its own methods, then every use case of `Operations`.
public enum InboxServer {
  static let ownMethods: [any RPCMethod.Type] = [Initialize.self, RPCDiscover.self, RPCPing.self]

  /// Every method name, in registration order.
  static var methodNames: [String] { ownMethods.map { $0.name } + Operations.all.map(\.name) }

  /// The registry for a server on `store` with these options.
  public static func registry(options: ServerOptions, store: InboxStore) throws -> MethodRegistry {
    try Session(options: options, store: store).registry
  }

  /// A running server: its inbox, its methods, and the work it does between requests (the
  /// background sync, and following what other processes commit to the store).
  public final class Session: Sendable {
    public let registry: MethodRegistry
    /// The inbox the methods adapt, for another face on the same process (MCP).
    public let inbox: Inbox
    /// What applying the start-up backend settings did: whether an account change cleared the inbox.
    public let startupOutcome: Synchronizer.ConfigureOutcome?
    private let state: ServerState
    private let background: BackgroundSync?
    private let follower: StoreFollower

    /// Opens the inbox on `store` (`Inbox.open`) and builds the registry. `backend` replaces the
    /// HTTP backend (tests).
    public init(options: ServerOptions, store: InboxStore, backend: (any Backend)? = nil) throws {
      let opened = try Inbox.open(options: options.inbox, store: store, backend: backend)
      let state = ServerState(inbox: opened.inbox)
      var registry = MethodRegistry(
        InboxServer.ownMethods.map { $0.method(state) } + Operations.all.map { $0.method(state) })
      if options.testMethods {
        for method in ConformanceMethods.all + ConformanceMethods.stateful(state) { registry.register(method) }
      }
      self.state = state
      self.registry = registry
      inbox = opened.inbox
      startupOutcome = opened.startupOutcome
      background = opened.background
      follower = opened.follower
    }

    /// Starts the background sync, if one was asked for, and the following of other processes'
    /// commits; what they change is said through `reporter` (`Session.reporter(notify:)` on this face).
    public func start(reporter: Reporter, logger: Logger) {
      follower.start(after: StoreFollower.startDelay, changed: reporter.changed) { logger.warn($0) }
      let context = OperationContext(
        inbox: inbox, reporter: reporter, warnings: state.warnings, cancellation: CancellationToken(), logger: logger)
      background?.start(observer: context.syncObserver(progress: false)) { line, warning in
        if warning { logger.warn(line) } else { logger.info(line) }
      }
    }

    /// The JSON-RPC notifications (`feed.changed`, `log`, `sync.progress`) sent through `notify`.
    public static func reporter(notify: @escaping @Sendable (String, JSONValue) -> Void) -> Reporter {
      ServerState.reporter(notify)
    }

    /// Stops the background sync and waits for a sync in flight to end; call before closing the store.
    public func stop() {
      background?.stop()
      follower.stop()
    }
  }

  /// Every method name a host can call, lifecycle ones included, for `initialize`.
  static var publicMethodNames: [String] {
    methodNames + Connection.lifecycleMethods
  }
}
