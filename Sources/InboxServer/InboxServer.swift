import InboxStore
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
    MessageGet.self,
    MessageTap.self,
    ButtonTap.self,
    SlideTap.self,
    MessageDismiss.self,
    MessageMarkRead.self,
    MessageIngest.self,
    MessageResolve.self,
  ]

  /// The registry for a server on `store` with these options.
  public static func registry(options: ServerOptions, store: InboxStore) throws -> MethodRegistry {
    let state = try ServerState(options: options, store: store)
    if options.sampleFeed { try SampleFeed.seedIfEmpty(state) }
    var registry = MethodRegistry(methods.map { $0.method(state) })
    if options.testMethods {
      for method in ConformanceMethods.all + ConformanceMethods.stateful(state) { registry.register(method) }
    }
    return registry
  }

  /// Every method name a host can call, lifecycle ones included, for `initialize`.
  static var publicMethodNames: [String] {
    methods.map { $0.name } + Connection.lifecycleMethods
  }
}
