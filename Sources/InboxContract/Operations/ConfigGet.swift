import InboxApp
import JSON
import JSONRPC

/// `config.get` -> `{attributes, backend}`: the attributes and the backend settings in force
/// (`backend.tokenSet` says whether an API token is set; the token itself is never shown).
enum ConfigGet: RPCMethod {
  static let name = "config.get"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    ["attributes": server.inbox.attributes.json, "backend": server.backendJSON(try server.inbox.backendStatus())]
  }
}
