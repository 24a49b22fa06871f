import InboxApp
import JSON
import JSONRPC

/// Both ways an MCP host opens a connection: `initialize` (2025-11-25, 2025-06-18), answered with
/// the revision, capabilities, serverInfo and instructions; and `server/discover` (the stateless
/// revision), after which the host names its revision in every request's `_meta`.
struct Handshake: Sendable {
  let era: Era

  static let serverInfo: JSONValue = [
    "name": .string(ServerInfo.name), "title": "Mobile inbox", "version": .string(ServerInfo.version),
  ]

  static let capabilities: JSONValue = [
    "tools": ["listChanged": false],
    "resources": ["subscribe": true, "listChanged": true],
    "prompts": ["listChanged": false],
    "logging": [:],
  ]

  static let instructions = """
    A user's mobile inbox (Pushwoosh InboxKit rules): cards of six kinds, pinned first, with up to three \
    buttons. Read with list_feed, get_message and inbox_counts (or the inbox:// resources); act with \
    tap_message, tap_button, tap_slide, mark_read, mark_all_read and dismiss_message, each stored before \
    it returns (dismissal is permanent); check what a marketer wrote with lint_payload and \
    resolve_payload; refresh from the backend with sync_inbox. The server opens no URL: tap results \
    name the action for the host. Output schemas give a card compactly; the resource \
    inbox://schemas/openrpc.json holds every shape in full.
    """

  /// `initialize {protocolVersion, capabilities, clientInfo}`: the asked revision when served, else the newest.
  func initialize(_ request: RequestContext) throws -> JSONValue {
    let asked = try request.params.string("protocolVersion")
    let version = asked.flatMap { Revision.handshake.contains($0) ? $0 : nil } ?? Revision.handshake[0]
    era.markHandshake()
    request.logger.info("mcp: initialize at \(version) (asked \(asked ?? "nothing"))")
    return [
      "protocolVersion": .string(version), "capabilities": Self.capabilities, "serverInfo": Self.serverInfo,
      "instructions": .string(Self.instructions),
    ]
  }

  /// `server/discover`: the stateless revisions served, the capabilities, serverInfo and instructions.
  func discover(_ request: RequestContext) throws -> JSONValue {
    let asked = Revision.requested(request.params)
    guard let asked, Revision.modern.contains(asked) else { throw Revision.unsupported(asked) }
    return [
      "supportedVersions": .array(Revision.modern.map(JSONValue.string)), "capabilities": Self.capabilities,
      "serverInfo": Self.serverInfo, "instructions": .string(Self.instructions), "ttlMs": 0,
      "cacheScope": "private",
    ]
  }
}
