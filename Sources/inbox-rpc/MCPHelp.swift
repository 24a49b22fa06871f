/// What `inbox-rpc mcp --help` prints: the MCP face, its handshakes, tools, resources and prompts.
/// (`Tests/EndToEnd/test_mcp_stdio.py` checks it names every tool the face lists.)
enum MCPHelp {
  static let text = """
    inbox-rpc mcp — the inbox as a Model Context Protocol server on stdin/stdout, for agents and
    editors: the same store, rules and guarantees as the JSON-RPC server.

    USAGE: inbox-rpc mcp [options]

    An MCP host starts this command itself; give every setting as an argument (the host passes a bare
    environment): --store PATH, the backend flags, and --token-file PATH for the API token. Every
    option of the JSON-RPC server applies (inbox-rpc --help lists them). Newline-delimited JSON;
    stdout carries frames only, logs go to stderr.

    HANDSHAKES: initialize for revisions 2025-11-25 and 2025-06-18; the stateless revision 2026-07-28
    (server/discover, then the revision in each request's _meta).

    TOOLS: list_feed, get_message, inbox_counts, tap_message, tap_button, tap_slide, mark_read,
      mark_all_read, dismiss_message, clear_read, ingest_payload, resolve_payload, lint_payload, sync_inbox.
      Each runs the JSON-RPC method of the same meaning; its schemas come from Schemas/openrpc.json.

    RESOURCES: inbox://feed, inbox://counts, inbox://message/{id}, inbox://schemas/openrpc.json
      (updates after every committed change, to subscribers).

    PROMPTS: summarize_unread, check_payload.

    A host configuration (Claude Desktop, VS Code and most others):
      {"command": "/path/to/inbox-rpc",
       "args": ["mcp", "--store", "/path/to/inbox.sqlite", "--application", "XXXXX-XXXXX",
                "--token-file", "/path/to/token"]}

    The plain server (inbox-rpc without mcp) refuses an MCP initialize with -32040, naming this command.
    """
}
