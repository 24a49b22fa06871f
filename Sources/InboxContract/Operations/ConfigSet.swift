import InboxApp
import JSON
import JSONRPC

/// `config.set {attributes?, backend?: {baseUrl?, application?, hwid?, userId?, deviceType?}}` ->
/// `{attributes, backend}`: merges the given members over the ones in force and saves them with the
/// store (committed before the reply); `null` resets a member.
///
/// `backend.baseUrl` must be https (http only to a loopback address), else -32602. A change of
/// `application` or `userId` clears the local inbox (`feed.changed {reason: "config", removed}`); changes
/// the old account has queued are still sent, as that account. The API token cannot be set here.
enum ConfigSet: Operation {
  static let name = "config.set"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: ConfigSetParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.configure(attributes: params.attributes, backend: params.backend, scope: .saved)
    context.report(result)
    return ["attributes": result.attributes.json, "backend": result.backend.json]
  }
}
