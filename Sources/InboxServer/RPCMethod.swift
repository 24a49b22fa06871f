import JSON
import JSONRPC

/// One RPC method: an adapter of a few lines in a file named after it — read the params the
/// contract accepted, call the inbox, encode the result.
protocol RPCMethod: SendableMetatype {
  /// The method name, exactly as API.md and Schemas/openrpc.json spell it.
  static var name: String { get }
  /// Whether it reads (on the reader) or writes (on the write lane, the store's writer making the
  /// change); background for work that waits on the network or may be cancelled.
  static var execution: Method.Execution { get }
  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue
  /// The method as the transport sees it. A requirement, not only an extension, so a method can
  /// replace it (`rpc.ping` skips the params contract) and the registry's call reaches the override.
  static func method(_ server: ServerState) -> Method
}

extension RPCMethod {
  static var execution: Method.Execution { .read }

  /// The method as the transport sees it: params checked against the contract once, then handled.
  static func method(_ server: ServerState) -> Method {
    Method(name, execution: execution) { request in
      try ParamsContract.forMethod(name)?.check(request.params)
      return try handle(ValidParams(checked: request.params), request, server)
    }
  }
}
