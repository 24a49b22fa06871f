import InboxApp
import JSON
import JSONRPC

/// `message.get {id}` -> `Card`.
enum MessageGet: RPCMethod {
  static let name = "message.get"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.card(id: try params.required("id", params.string))
    server.report(result.effects, request)
    return result.card.json
  }
}
