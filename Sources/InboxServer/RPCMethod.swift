import InboxContract
import JSON
import JSONRPC

/// A method of the JSON-RPC face alone (`initialize`, `rpc.discover`, `rpc.ping`): an adapter of a
/// few lines in a file named after it — take the typed params, call the inbox, encode the result.
protocol RPCMethod: SendableMetatype {
  associatedtype Params: OperationParams
  /// The method name, exactly as Schemas/openrpc.json spells it.
  static var name: String { get }
  /// Whether it reads or writes (`initialize` saves the backend it names).
  static var execution: Method.Execution { get }
  static func handle(_ params: Params, _ request: RequestContext, _ server: ServerState) throws -> JSONValue
  /// The method as the transport sees it. A requirement, not only an extension, so a method can
  /// replace it (`rpc.ping` skips the params contract) and the registry's call reaches the override.
  static func method(_ server: ServerState) -> Method
}

extension RPCMethod {
  static var execution: Method.Execution { .read }

  /// The method as the transport sees it: params checked against the contract once, decoded once.
  static func method(_ server: ServerState) -> Method {
    let run: Method.Handler = { request in
      try ParamsContract.forMethod(name)?.check(request.params)
      return try handle(Params(ParamsReader(request.params.raw?.objectValue ?? [:])), request, server)
    }
    // A write is one write job (`initialize` saves the backend it names).
    guard execution == .write else { return Method(name, execution: execution, handler: run) }
    return Method(name, write: { request in server.inbox.attemptWrite { try run(request) } })
  }
}

extension AnyOperation {
  /// A use case as a JSON-RPC method: params checked against the contract once, then the operation
  /// decodes them and runs; its events become this request's notifications.
  func method(_ server: ServerState) -> Method {
    switch run {
    case .now(let run):
      return Method(name, execution: execution) { request in
        try ParamsContract.forMethod(name)?.check(request.params)
        return try run(request.params.raw?.objectValue ?? [:], server.context(for: request))
      }
    case .write(let write):
      return Method(
        name,
        write: { request in
          do {
            try ParamsContract.forMethod(name)?.check(request.params)
          } catch {
            return .done(.failure(error))
          }
          return write(request.params.raw?.objectValue ?? [:], server.context(for: request))
        })
    case .later: break
    }
    // Answers later: a sync queued behind another holds a callback, not a worker; a wallet download
    // starts on a worker (the network) and holds it until its mark of the message is made.
    return Method(
      name, placement: { [execution] _ in execution },
      deferred: { request, reply in
        do {
          try ParamsContract.forMethod(name)?.check(request.params)
        } catch {
          return reply.fail(error)
        }
        start(request.params.raw?.objectValue ?? [:], server.context(for: request), reply)
      })
  }
}
