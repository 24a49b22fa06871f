import JSON
import JSONRPC

/// `config.set {attributes?, backend?: {baseUrl?, application?, hwid?, userId?, deviceType?}}` ->
/// `{attributes, backend}`: merges the given members over the ones in force and saves them with the
/// store (committed before the reply); `null` resets a member.
///
/// `backend.baseUrl` must be https (http only to a loopback address), else -32602. A change of
/// `application` or `userId` clears the local inbox (`feed.changed {reason: "config", removed}`); changes
/// the old account has queued are still sent, as that account. The API token cannot be set here.
enum ConfigSet: RPCMethod {
  static let name = "config.set"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let partial = try request.params.objectParam("attributes")
    let backend = try request.params.objectParam("backend")
    // Check the attributes before anything is saved, so a bad call changes nothing.
    _ = try server.attributes.applying(.object(partial ?? [:]))
    if let backend { try server.configureBackend(backend, request) }
    let attributes = try server.applyAttributes(.object(partial ?? [:]), persist: true)
    if partial != nil || backend == nil { server.feedChanged(request, reason: "config") }
    return ["attributes": attributes.json, "backend": try server.backendJSON()]
  }
}
