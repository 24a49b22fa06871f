import InboxApp
import InboxContract
import InboxCore
import JSON
import JSONRPC

/// `initialize {client?, platform?, capabilities?: {walletPasses?}, attributes?, backend?}` ->
/// `{serverInfo, capabilities: {experimental: {inbox}}, server, protocolVersion, methods, attributes}`,
/// or LSP's `InitializeResult` alone to an LSP client (`HandshakeHost`); `config.get` shows the backend
/// settings.
///
/// Optional: a host that never calls it gets the attributes saved with the store. The attributes it
/// sets apply to this session only; `config.set` is the way to save attributes with the store.
/// `backend` is applied as `config.set` applies it, and saved: the store must remember which account
/// its messages belong to. An MCP host's handshake is refused, naming `inbox-rpc mcp`, before
/// anything is applied.
enum Initialize: RPCMethod {
  static let name = "initialize"
  /// A write: the backend it names is saved, after the requests before it, and a busy store is
  /// waited for in the scheduler, not on a thread.
  static let execution: Method.Execution = .write

  static func handle(_ params: InitializeParams, _ request: RequestContext, _ server: ServerState) throws
    -> JSONValue
  {
    let host = HandshakeHost(params)
    if case .mcp(let revision) = host { throw HandshakeHost.mcpRefusal(revision: revision) }
    let context = server.context(for: request)
    let result = try server.inbox.configure(
      attributes: params.sessionAttributes, backend: params.backend, scope: .session)
    context.report(result)
    return host.reply(attributes: result.attributes.json)
  }

}
