import JSON
import JSONRPC

/// The MCP revisions served, and the `_meta` keys by which the stateless one travels.
enum Revision {
  /// The stateless revision: `server/discover`, then the version in every request's `_meta`.
  static let modern = ["2026-07-28"]
  /// Revisions reached through `initialize`, newest first.
  static let handshake = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

  static let versionKey = "io.modelcontextprotocol/protocolVersion"
  static let logLevelKey = "io.modelcontextprotocol/logLevel"
  static let subscriptionKey = "io.modelcontextprotocol/subscriptionId"
  static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

  /// What a revision has that an older one lacks, each named by the revision that brought it
  /// (revisions are dates, so they compare as text).
  struct Features: Sendable {
    /// `structuredContent` in tool results and `outputSchema` in tool definitions.
    let structuredOutput: Bool
    /// `title` beside `name` on tools, resources, templates, prompts and `serverInfo`.
    let titles: Bool
    /// `annotations` (read-only, destructive, idempotent, open-world hints) on tools.
    let toolAnnotations: Bool
    /// A `message` beside the numbers of `notifications/progress`.
    let progressMessages: Bool
    /// Arguments that break a tool's input schema answered as a result with `isError: true`
    /// (a tool execution error the model can read and fix) rather than -32602.
    let inputErrorsAsResults: Bool

    init(_ revision: String) {
      structuredOutput = revision >= "2025-06-18"
      titles = revision >= "2025-06-18"
      toolAnnotations = revision >= "2025-03-26"
      progressMessages = revision >= "2025-03-26"
      inputErrorsAsResults = revision >= "2025-11-25"
    }
  }

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
