import JSON
import JSONRPC

/// `initialize {client?, platform?, capabilities?: {walletPasses?}, attributes?}` ->
/// `{server, protocolVersion, methods, attributes}`. Optional: a host that never calls it gets the defaults.
enum Initialize: RPCMethod {
  static let name = "initialize"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let params = request.params
    let platform = try params.string("platform")
    let attributes = server.update { attributes in
      if let platform { attributes["platform"] = .string(platform) }
    }
    return [
      "server": ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)],
      "protocolVersion": .string(ServerInfo.protocolVersion),
      "methods": .array(InboxServer.publicMethodNames.map { .string($0) }),
      "attributes": .object(attributes),
    ]
  }
}
