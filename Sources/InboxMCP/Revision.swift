import JSON
import JSONRPC

/// The MCP revisions served, and the `_meta` keys by which the stateless one travels.
enum Revision {
  /// The stateless revision: `server/discover`, then the version in every request's `_meta`.
  static let modern = ["2026-07-28"]
  /// Revisions reached through `initialize`, newest first.
  static let handshake = ["2025-11-25", "2025-06-18"]

  static let versionKey = "io.modelcontextprotocol/protocolVersion"
  static let logLevelKey = "io.modelcontextprotocol/logLevel"
  static let subscriptionKey = "io.modelcontextprotocol/subscriptionId"
  static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

  /// The version a request's `_meta` names, if any: present only in the stateless revision.
  static func requested(_ params: Params) -> String? {
    params.raw?["_meta"]?[versionKey]?.stringValue
  }

  /// -32022 with `data.supported`, so a client can retry at a version both speak.
  static func unsupported(_ requested: String?) -> RPCError {
    RPCError(
      ErrorCode(rawValue: -32022), "Unsupported protocol version: \(requested ?? "none given")",
      data: [
        "supported": .array((modern + handshake).map(JSONValue.string)),
        "requested": requested.map(JSONValue.string) ?? .null,
      ])
  }
}
