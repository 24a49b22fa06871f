/// Which tools a server offers (`inbox-rpc mcp --read-only`, `--tools NAME,...`): every tool, or
/// those whose annotations say read-only, or those named, or the read-only ones among those named.
/// Resources and prompts stay either way: they only read. A tool left out is not listed, and a call
/// to it is refused with the reason.
public struct ToolSelection: Sendable {
  public var readOnly: Bool
  /// The allow-list; nil for every tool.
  public var names: [String]?

  public init(readOnly: Bool = false, names: [String]? = nil) {
    self.readOnly = readOnly
    self.names = names
  }

  /// Every tool's name, in `tools/list` order.
  public static var toolNames: [String] { ToolCatalog.all.map(\.name) }

  /// The names in the allow-list that name no tool (a bad command line).
  public var unknownNames: [String] { (names ?? []).filter { !Self.toolNames.contains($0) } }

  func offers(_ tool: Tool) -> Bool { refusal(of: tool) == nil }

  /// Why `tool` is not offered, in words for the host and its model; nil when it is.
  func refusal(of tool: Tool) -> String? {
    if let names, !names.contains(tool.name) {
      return "\(tool.name) is not offered: this server was started with --tools \(names.joined(separator: ",")), "
        + "which leaves it out"
    }
    if readOnly && !tool.hints.readOnly {
      return "\(tool.name) is not offered: this server was started with --read-only, and \(tool.name) changes "
        + "the inbox or reaches the backend"
    }
    return nil
  }

  /// How the selection was made, for the handshake's instructions (which name the tools offered);
  /// nil for every tool.
  var summary: String? {
    switch (readOnly, names) {
    case (false, nil): return nil
    case (true, nil): return "This server is read-only (--read-only): it offers only the tools that change nothing."
    case (false, _?): return "This server offers only the tools its --tools list names."
    case (true, _?):
      return "This server is read-only (--read-only) and offers only the read-only tools its --tools list names."
    }
  }
}
