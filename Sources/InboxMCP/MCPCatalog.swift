/// The tool catalog as the executable shows it (`inbox-rpc mcp --help`): each tool's name, the few
/// words that say what it does, and its hints, in `tools/list` order.
public enum MCPCatalog {
  public struct Entry: Sendable {
    public let name: String
    public let summary: String
    public let readOnly: Bool
    public let destructive: Bool
    public let openWorld: Bool
  }

  public static var tools: [Entry] {
    ToolCatalog.all.map {
      Entry(
        name: $0.name, summary: $0.summary, readOnly: $0.hints.readOnly, destructive: $0.hints.destructive,
        openWorld: $0.hints.openWorld)
    }
  }
}
