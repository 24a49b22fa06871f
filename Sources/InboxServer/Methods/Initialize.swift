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

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let params = request.params
    var partial = try params.objectParam("attributes") ?? [:]
    if let platform = try params.string("platform") { partial["platform"] = .string(platform) }
    if let capabilities = try params.objectParam("capabilities"), let walletPasses = capabilities["walletPasses"] {
      guard walletPasses.boolValue != nil || walletPasses.isNull else {
        throw RPCError.invalidParams(
          "capabilities.walletPasses", "expected a boolean, got \(walletPasses.typeName)")
      }
      partial["walletPasses"] = walletPasses
    }
    _ = try server.attributes.applying(.object(partial))
    if let backend = try params.objectParam("backend") { try server.configureBackend(backend, request) }
    let attributes = try server.applyAttributes(.object(partial), persist: false)
    let info: JSONValue = ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)]
    return [
      "server": info,
      // LSP's names: its clients wait for `capabilities` and read `serverInfo` before they go on.
      "serverInfo": info,
      "capabilities": [:],
      "protocolVersion": .string(ServerInfo.protocolVersion),
      "methods": .array(InboxServer.publicMethodNames.map { .string($0) }),
      "attributes": attributes.json,
    ]
  }
}
