import JSON
import JSONRPC

/// `message.get {id}` -> `Card`.
enum MessageGet: RPCMethod {
  static let name = "message.get"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let id = try request.params.requiredString("id")
    return try server.card(server.visibleMessage(id), request).json
  }
}
