import InboxStore
import InboxSync
import JSON
import JSONRPC

/// Builds the method registry: one list, so `initialize`, `rpc.discover` and dispatch cannot drift.
public enum InboxServer {
  static let methods: [any RPCMethod.Type] = [
    Initialize.self,
    RPCDiscover.self,
    RPCPing.self,
    ConfigGet.self,
    ConfigSet.self,
    FeedList.self,
    FeedCountsMethod.self,
    FeedMarkAllRead.self,
    FeedSync.self,
    MessageGet.self,
    MessageTap.self,
    ButtonTap.self,
    SlideTap.self,
    MessageDismiss.self,
    MessageMarkRead.self,
    MessageIngest.self,
    MessageResolve.self,
    MessageRender.self,
  ]

  /// The registry for a server on `store` with these options.
  public static func registry(options: ServerOptions, store: InboxStore) throws -> MethodRegistry {
    try Session(options: options, store: store).registry
  }

  /// A running server: its methods, and the work it does between requests (the background sync).
  public final class Session: Sendable {
    public let registry: MethodRegistry
    private let state: ServerState
    private let background: BackgroundSync?

    /// Opens the server's state on `store`: applies the start-up backend settings, seeds the sample
    /// feed if asked, builds the registry. `backend` replaces the HTTP backend (tests).
    public init(options: ServerOptions, store: InboxStore, backend: (any Backend)? = nil) throws {
      let state = try ServerState(options: options, store: store, backend: backend)
      if options.sampleFeed { try SampleFeed.seedIfEmpty(state.inbox) }
      var registry = MethodRegistry(InboxServer.methods.map { $0.method(state) })
      if options.testMethods {
        for method in ConformanceMethods.all + ConformanceMethods.stateful(state) { registry.register(method) }
      }
      self.state = state
      self.registry = registry
      background = options.sync.interval.map { BackgroundSync(server: state, interval: $0) }
    }

    /// What applying the start-up backend settings did: whether an account change cleared the inbox.
    public var startupOutcome: Synchronizer.ConfigureOutcome? { state.startupOutcome }

    /// Starts the background sync, if one was asked for; it notifies the host through `notify`.
    public func start(notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger) {
      background?.start(notify: notify, logger: logger)
    }

    /// Stops the background sync and waits for a sync in flight to end; call before closing the store.
    public func stop() {
      background?.stop()
    }
  }

  /// Every method name a host can call, lifecycle ones included, for `initialize`.
  static var publicMethodNames: [String] {
    methods.map { $0.name } + Connection.lifecycleMethods
  }
}

extension InboxServer.Session {
  /// Runs one method in process, exactly as the transport would: another protocol face (MCP)
  /// reaches the same implementations, so no rule of the engine or the store is written twice.
  public func call(_ request: RequestContext) throws -> JSONValue {
    guard let method = registry[request.method] else { throw RPCError.methodNotFound(request.method) }
    return try method.call(request)
  }
}

extension InboxServer {
  /// The contract, Schemas/openrpc.json as embedded at build time.
  public static var contract: JSONValue { RPCDiscover.document }
}

extension InboxServer.Session {
  /// Lints a payload as `inbox-rpc lint` does, under the attributes in force with `patch` applied,
  /// at `now` or the server's clock.
  public func lint(_ payload: JSONValue, attributes patch: JSONValue?, now: Int64?) throws -> JSONValue {
    let attributes = try state.inbox.attributes(merging: patch)
    return PayloadLint.json(PayloadLint.lint(payload, attributes: attributes, now: now ?? state.inbox.clock.now))
  }
}
