/// How JSON-RPC messages are delimited on a byte stream (docs/protocol.md#transport).
public enum Framing: String, Sendable, CaseIterable {
  /// One compact JSON text per line: what shell scripts, jq and MCP use.
  case ndjson
  /// `Content-Length: N\r\n\r\n` headers before each body: what LSP clients and editors use.
  case lsp
}
