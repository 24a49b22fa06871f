import JSON
import JSONRPC

/// Builds the method registry: one list, so `initialize`, `rpc.discover` and dispatch cannot drift.
public enum InboxServer {
  static let methods: [any RPCMethod.Type] = [
    Initialize.self,
    RPCDiscover.self,
    RPCPing.self,
  ]

  /// The registry for a server with these options.
  public static func registry(options: ServerOptions) -> MethodRegistry {
    let state = ServerState(options: options)
    var registry = MethodRegistry(methods.map { $0.method(state) })
    if options.testMethods {
      for method in ConformanceMethods.all { registry.register(method) }
    }
    return registry
  }

  /// Every method name a host can call, lifecycle ones included, for `initialize`.
  static var publicMethodNames: [String] {
    methods.map { $0.name } + Connection.lifecycleMethods
  }
}
