import InboxApp
import InboxContract
import JSON
import JSONRPC

extension ErrorCode {
  /// An MCP host started the plain server: it must start `inbox-rpc mcp`. `data: {reason}`.
  static let mcpHandshake = ErrorCode(rawValue: -32040)
}

/// Which kind of host sent `initialize`, read from the members only that kind sends, so each gets a
/// reply it accepts.
enum HandshakeHost: Equatable {
  /// An LSP client: its params carry `processId`, which LSP's `InitializeParams` requires (null
  /// allowed) and the inbox's params never name. A strict one (Eglot's strict mode) refuses any
  /// `InitializeResult` member besides `capabilities` and `serverInfo`.
  case lsp
  /// An MCP host: `protocolVersion` is a date-stamped MCP revision ("2025-06-18").
  case mcp(revision: String)
  /// Any other host: the inbox's own handshake.
  case inbox

  init(_ params: InitializeParams) {
    if let revision = params.protocolVersion, revision.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil {
      self = .mcp(revision: revision)
    } else if params.processID != nil {
      self = .lsp
    } else {
      self = .inbox
    }
  }

  /// The refusal an MCP host gets: what it reached, and the command that speaks MCP.
  static func mcpRefusal(revision: String) -> RPCError {
    RPCError(
      .mcpHandshake, "This is the JSON-RPC server; for MCP start `inbox-rpc mcp`",
      data: [
        "reason": .string(
          "initialize carries MCP's protocolVersion \(JSONValue.string(revision).jsonString): an MCP host must run "
            + "`inbox-rpc mcp` (the same flags apply); the plain server speaks inbox-rpc's JSON-RPC contract")
      ])
  }

  /// The reply: LSP's `InitializeResult` (`capabilities`, `serverInfo`) for every host, the inbox's
  /// members under `capabilities.experimental.inbox`; a host that is not an LSP client also finds
  /// them at the top level, where the inbox's clients read them.
  func reply(attributes: JSONValue) -> JSONValue {
    let info: JSONValue = ["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)]
    let inbox: JSONObject = [
      "server": info, "protocolVersion": .string(ServerInfo.protocolVersion),
      "methods": .array(InboxServer.publicMethodNames.map { .string($0) }), "attributes": attributes,
    ]
    var reply: JSONObject = ["serverInfo": info, "capabilities": ["experimental": ["inbox": .object(inbox)]]]
    if self != .lsp {
      for member in inbox { reply[member.key] = member.value }
    }
    return .object(reply)
  }
}
