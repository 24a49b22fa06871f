import InboxMCP

/// What `inbox-rpc mcp --help` prints: the MCP face, its handshakes, tools, resources and prompts.
/// The tools' lines come from the catalog in the contract (`MCPCatalog`), as docs/mcp.md's table does.
enum MCPHelp {
  static var text: String {
    """
    inbox-rpc mcp — the inbox as a Model Context Protocol server on stdin/stdout, for agents and
    editors: the same store, rules and guarantees as the JSON-RPC server.

    USAGE: inbox-rpc mcp [--read-only] [--tools NAME,...] [options]

    An MCP host starts this command itself; give every setting as an argument (the host passes a bare
    environment): --store PATH, the backend flags, and --token-file PATH for the API token. Every
    option of the JSON-RPC server applies (inbox-rpc --help lists them). Newline-delimited JSON;
    stdout carries frames only, logs go to stderr.

    SCOPE (what an agent may do):
      --read-only         Offer only the tools whose annotations say read-only (resources and prompts stay).
      --tools NAME,...    Offer only the tools named (with --read-only: the read-only ones among them).
                          A name that is no tool is a bad command line (exit 2). tools/list shows only
                          what is offered; a call to any other tool is refused (-32602) saying why.

    HANDSHAKES: initialize for revisions 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 (what an
    older revision lacks, such as structured output, titles and tool annotations, is left out of its
    replies); the stateless revision 2026-07-28 (server/discover, then the revision in each
    request's _meta).

    TOOLS (ro: read-only, destructive, open world: reaches the backend):
    \(MCPCatalog.tools.map(line).joined(separator: "\n"))
      Each runs the JSON-RPC method of the same meaning; its schemas come from Schemas/openrpc.json.

    RESOURCES: inbox://feed, inbox://counts, inbox://message/{id}, inbox://schemas/openrpc.json
      (updates after every committed change, to subscribers); inbox://changes{?since,limit}, the
      journal after a cursor as list_changes answers it.

    PROMPTS: summarize_unread, check_payload.

    A host configuration (Claude Desktop, VS Code and most others):
      {"command": "/path/to/inbox-rpc",
       "args": ["mcp", "--store", "/path/to/inbox.sqlite", "--application", "XXXXX-XXXXX",
                "--token-file", "/path/to/token"]}

    The plain server (inbox-rpc without mcp) refuses an MCP initialize with -32040, naming this command.
    """
  }

  private static func line(_ tool: MCPCatalog.Entry) -> String {
    var marks: [String] = []
    if tool.readOnly { marks.append("ro") }
    if tool.destructive { marks.append("destructive") }
    if tool.openWorld { marks.append("open world") }
    let name = tool.name.padding(toLength: 16)
    return "  \(name)  \(tool.summary.filter { $0 != "`" })"
      + (marks.isEmpty ? "" : " [\(marks.joined(separator: ", "))]")
  }

  /// Why the tool flags cannot be used as given (a bad command line), or nil.
  static func problem(with selection: ToolSelection, mcpMode: Bool) -> String? {
    if !mcpMode && (selection.readOnly || selection.names != nil) {
      return "--read-only and --tools choose the tools of inbox-rpc mcp; the JSON-RPC server has none"
    }
    let unknown = selection.unknownNames
    guard !unknown.isEmpty else { return nil }
    return "--tools: no tool is named \(unknown.joined(separator: ", ")) (the tools: "
      + "\(ToolSelection.toolNames.joined(separator: ", ")))"
  }
}

extension String {
  fileprivate func padding(toLength length: Int) -> String {
    count >= length ? self : self + String(repeating: " ", count: length - count)
  }
}
