import JSON
import JSONRPC

/// `config.get` -> `{attributes}`: the attributes in force.
enum ConfigGet: RPCMethod {
  static let name = "config.get"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    ["attributes": server.attributes.json]
  }
}
