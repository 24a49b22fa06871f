import InboxApp
import JSON
import JSONRPC

/// Both ways an MCP host opens a connection: `initialize` (2025-11-25 back to 2024-11-05), answered with
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

  /// What the host's model reads first: the inbox, and the tools this server offers, grouped by
  /// what they do (from the catalog), then how they were chosen when not all are offered.
  let instructions: String

  init(era: Era, tools: [Tool], selection: ToolSelection) {
    self.era = era
    instructions = Self.instructions(tools: tools, selection: selection)
  }

  static func instructions(tools: [Tool], selection: ToolSelection) -> String {
    func names(_ group: [Tool]) -> String {
      let names = group.map(\.name)
      guard let last = names.last, names.count > 1 else { return names.joined() }
      return names.dropLast().joined(separator: ", ") + " and " + last
    }
    let reads = tools.filter { $0.hints.readOnly }
    let acts = tools.filter { !$0.hints.readOnly && !$0.hints.openWorld }
    let reaches = tools.filter { $0.hints.openWorld }
    var parts = [
      "A user's mobile inbox (Pushwoosh InboxKit rules): cards of six kinds, pinned first, with up to three "
        + "buttons (numbered from 0). Read with \(reads.isEmpty ? "the inbox:// resources" : names(reads) + " (or the inbox:// resources)")."
    ]
    if !acts.isEmpty {
      parts.append(
        "Act with \(names(acts)), each stored before it returns"
          + (acts.contains { $0.hints.destructive } ? " (a dismissal is permanent)." : "."))
    }
    if !reaches.isEmpty { parts.append("Reach the backend with \(names(reaches)).") }
    parts.append(
      "The server opens no URL: tap results name the action for the host. Every tool's text names the ids, "
        + "button indexes, cursor and counts the next call needs. Output schemas give a card compactly; the "
        + "resource inbox://schemas/openrpc.json holds every shape in full.")
    if let summary = selection.summary { parts.append(summary) }
    return parts.joined(separator: " ")
  }

  /// `initialize {protocolVersion, capabilities, clientInfo}`: the asked revision when served, else the newest.
  func initialize(_ request: RequestContext) throws -> JSONValue {
    let asked = try request.params.string("protocolVersion")
    let version = asked.flatMap { Revision.handshake.contains($0) ? $0 : nil } ?? Revision.handshake[0]
    era.markHandshake(version)
    request.logger.info("mcp: initialize at \(version) (asked \(asked ?? "nothing"))")
    return [
      "protocolVersion": .string(version), "capabilities": Self.capabilities,
      "serverInfo": Downlevel.serverInfo(Self.serverInfo, for: version), "instructions": .string(instructions),
    ]
  }

  /// `server/discover`: the stateless revisions served, the capabilities and instructions.
  func discover(_ request: RequestContext) throws -> JSONValue {
    let asked = Revision.requested(request.params)
    guard let asked, Revision.modern.contains(asked) else { throw Revision.unsupported(asked) }
    return [
      // No serverInfo member: that revision carries it in every result's `_meta` (`MCPServer.stamped`).
      "supportedVersions": .array(Revision.modern.map(JSONValue.string)), "capabilities": Self.capabilities,
      "instructions": .string(instructions), "ttlMs": 0,
      "cacheScope": "private",
    ]
  }
}
