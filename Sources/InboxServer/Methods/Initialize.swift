import InboxCore
import JSON
import JSONRPC

/// `initialize {client?, platform?, capabilities?: {walletPasses?}, attributes?}` ->
/// `{server, protocolVersion, methods, attributes}`.
///
/// Optional: a host that never calls it gets the attributes saved with the store. What it sets
/// applies to this session only; `config.set` is the way to save attributes with the store.
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
    let attributes = try server.applyAttributes(.object(partial), persist: false)
    return [
      "server": ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)],
      "protocolVersion": .string(ServerInfo.protocolVersion),
      "methods": .array(InboxServer.publicMethodNames.map { .string($0) }),
      "attributes": attributes.json,
    ]
  }
}
