import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `initialize {client?, platform?, capabilities?: {walletPasses?}, attributes?, backend?}` ->
/// `{server, serverInfo, capabilities, protocolVersion, methods, attributes}` (`config.get` shows the
/// backend settings).
///
/// Optional: a host that never calls it gets the attributes saved with the store. The attributes it
/// sets apply to this session only; `config.set` is the way to save attributes with the store.
/// `backend` is applied as `config.set` applies it, and saved: the store must remember which account
/// its messages belong to.
enum Initialize: RPCMethod {
  static let name = "initialize"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    var partial = params.object("attributes") ?? [:]
    if let platform = params.string("platform") { partial["platform"] = .string(platform) }
    if let walletPasses = params.object("capabilities")?["walletPasses"] { partial["walletPasses"] = walletPasses }
    let result = try server.inbox.configure(
      attributes: .object(partial), backend: try server.backendPatch(params.object("backend")), scope: .session)
    server.report(result, request)
    let info: JSONValue = ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)]
    return [
      "server": info,
      // LSP's names: its clients wait for `capabilities` and read `serverInfo` before they go on.
      "serverInfo": info,
      "capabilities": [:],
      "protocolVersion": .string(ServerInfo.protocolVersion),
      "methods": .array(InboxServer.publicMethodNames.map { .string($0) }),
      "attributes": result.attributes.json,
    ]
  }
}
