import InboxApp
import JSON
import JSONRPC

/// `config.set {attributes?, backend?: {baseUrl?, application?, hwid?, userId?, deviceType?}}` ->
/// `{attributes, backend}`: merges the given members over the ones in force and saves them with the
/// store (committed before the reply); `null` resets a member.
///
/// `backend.baseUrl` must be https, or http to the (loopback) host and port the command line gave, and
/// parse with libcurl's URL parser, else -32602. A change of
/// `application` or `userId` clears the local inbox (`feed.changed {reason: "config", removed}`); changes
/// the old account has queued are still sent, as that account. The API token cannot be set here.
enum ConfigSet: RPCMethod {
  static let name = "config.set"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let result = try server.inbox.configure(
      attributes: params.value("attributes"), backend: try server.backendPatch(params.object("backend")),
      scope: .saved)
    server.report(result, request)
    return ["attributes": result.attributes.json, "backend": server.backendJSON(result.backend)]
  }
}
