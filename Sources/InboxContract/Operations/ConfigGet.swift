import InboxApp
import JSON
import JSONRPC

/// `config.get` -> `{attributes, backend}`: the attributes and the backend settings in force
/// (`backend.tokenSet` says whether an API token is set; the token itself is never shown).
enum ConfigGet: Operation {
  static let name = "config.get"

  static func run(_ params: NoParams, _ context: OperationContext) throws -> JSONValue {
    ["attributes": context.inbox.attributes.json, "backend": try context.inbox.backendStatus().json]
  }
}
