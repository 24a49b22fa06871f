import JSON
import JSONRPC

/// `config.set {attributes}` -> `{attributes}`: merges the given members over the attributes in
/// force and saves them with the store (committed before the reply).
enum ConfigSet: RPCMethod {
  static let name = "config.set"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let partial = try request.params.objectParam("attributes") ?? [:]
    let attributes = try server.applyAttributes(.object(partial), persist: true)
    server.feedChanged(request, reason: "config")
    return ["attributes": attributes.json]
  }
}
