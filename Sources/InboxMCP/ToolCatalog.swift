import InboxApp
import JSON

/// Every tool, in the order `tools/list` gives them: read from the contract, where each method lists
/// the tools that run it under `x-mcp-tools` (name, title, description, summary, hints, and for a
/// tool that takes part of the method's params or returns another shape, `params` and `output`).
/// What is said once there is said here, in the handshake's instructions, in `inbox-rpc mcp --help`
/// and in docs/mcp.md's table (`script/readme-tables`). What the contract cannot hold is here: how
/// each tool's result reads as text, and the tools that do not run their method as it stands.
enum ToolCatalog {
  static let all: [Tool] = tools(in: Contract.document)

  /// How each tool's result reads as text; a tool missing here reads as its JSON.
  static let texts: [String: @Sendable (JSONValue) -> String] = [
    "list_feed": ToolText.feed, "get_message": ToolText.card, "inbox_counts": ToolText.counts,
    "tap_message": ToolText.tap, "tap_button": ToolText.buttonTap, "tap_slide": ToolText.slideTap,
    "report_seen": ToolText.seen, "play_video": ToolText.videoPlay, "add_wallet_pass": ToolText.walletPass,
    "report_wallet_pass": ToolText.walletReport,
    "mark_read": ToolText.markRead, "mark_all_read": ToolText.markRead, "mark_all_seen": ToolText.markedSeen,
    "dismiss_message": ToolText.dismiss,
    "clear_read": ToolText.cleared,
    "ingest_payload": ToolText.ingest, "resolve_payload": ToolText.card, "lint_payload": ToolText.lint,
    "sync_inbox": ToolText.sync, "explain_card": ToolText.explanation, "list_changes": ToolText.changes,
  ]

  /// Tools that run something else than their method: the linter reads `message.resolve`'s params.
  private static let runs: [String: Tool.Run] = ["lint_payload": .lint]

  static func tools(in contract: JSONValue) -> [Tool] {
    (contract["methods"]?.arrayValue ?? []).flatMap { method -> [Tool] in
      guard let methodName = method["name"]?.stringValue else { return [] }
      return (method["x-mcp-tools"]?.arrayValue ?? []).compactMap { entry in
        guard let name = entry["name"]?.stringValue else { return nil }
        let hints = entry["hints"] ?? [:]
        return Tool(
          name: name, title: entry["title"]?.stringValue ?? name, description: entry["description"]?.stringValue ?? "",
          summary: entry["summary"]?.stringValue ?? "", method: methodName,
          params: entry["params"]?.arrayValue?.compactMap(\.stringValue), outputShape: entry["output"]?.stringValue,
          run: runs[name] ?? .method,
          hints: Tool.Hints(
            readOnly: hints["readOnly"]?.boolValue ?? false, destructive: hints["destructive"]?.boolValue ?? false,
            idempotent: hints["idempotent"]?.boolValue ?? false, openWorld: hints["openWorld"]?.boolValue ?? false),
          text: texts[name] ?? { $0.jsonString })
      }
    }
  }
}
