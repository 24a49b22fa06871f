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

  /// The registry for a server on `store` with these options (a runtime of its own: tests, fuzzing).
  public static func registry(options: ServerOptions, store: InboxStore) throws -> MethodRegistry {
    registry(runtime: try InboxRuntime(options: options.inbox, store: store), testMethods: options.testMethods)
  }

  /// The JSON-RPC face on `runtime`: its own methods, then every use case; `testMethods` adds the
  /// JSON-RPC specification's example methods and test helpers (conformance tests only).
  public static func registry(runtime: InboxRuntime, testMethods: Bool = false) -> MethodRegistry {
    let state = ServerState(inbox: runtime.inbox, warnings: runtime.warnings)
    var registry = MethodRegistry(ownMethods.map { $0.method(state) } + Operations.all.map { $0.method(state) })
    if testMethods {
      for method in ConformanceMethods.all + ConformanceMethods.stateful(state) { registry.register(method) }
    }
    return registry
  }

  /// The JSON-RPC notifications (`feed.changed`, `log`, `sync.progress`) sent through `notify`.
  public static func reporter(notify: @escaping @Sendable (String, JSONValue) -> Void) -> Reporter {
    ServerState.reporter(notify)
  }

  /// Every method name a host can call, lifecycle ones included, for `initialize`.
  static var publicMethodNames: [String] {
    methodNames + Connection.lifecycleMethods
  }
}
