import InboxApp
import InboxContract
import JSON
import JSONRPC

/// Two prompts that bring the inbox's state into a conversation in one step, which a tool call
/// cannot: the unread feed to summarise, and a payload's lint report to explain and fix.
struct Prompts: Sendable {
  let gateway: Gateway

  func list(_ request: RequestContext) throws -> JSONValue {
    [
      "prompts": [
        [
          "name": "summarize_unread", "title": "Summarise my unread inbox",
          "description": "The unread cards, embedded, with a request to summarise them and suggest what to act on.",
        ],
        [
          "name": "check_payload", "title": "Check a payload before sending",
          "description": "A payload's lint report, embedded, with a request to explain each problem and propose a fix.",
          "arguments": [
            ["name": "payload", "description": "The payload, as JSON text.", "required": true]
          ],
        ],
      ]
    ]
  }

  /// `prompts/get {name, arguments?}`.
  func get(_ request: RequestContext) throws -> JSONValue {
    let name = try request.params.requiredString("name")
    switch name {
    case "summarize_unread":
      let feed = try FeedList.run(FeedListParams(limit: 200, unreadOnly: true), gateway.context(for: request))
      return messages(
        "Summarise my unread inbox below in a few lines: what each message wants from me, which are pinned or "
          + "expire soon, and which I can dismiss. Use tap_button, mark_read or dismiss_message only if I ask.",
        uri: ResourceURI.feed, feed)
    case "check_payload":
      let text =
        try request.params.objectParam("arguments")?["payload"]?.stringValue
        ?? {
          throw RPCError.invalidParams("arguments.payload", "required")
        }()
      guard let payload = try? JSONValue.parse(text) else {
        throw RPCError.invalidParams("arguments.payload", "not JSON text")
      }
      let report = PayloadLint.json(try gateway.inbox.lint(payload))
      return messages(
        "Here is what the inbox engine makes of this payload. Explain each refusal, warning and schema problem "
          + "to the marketer in plain words, propose a corrected payload, and check it with lint_payload.\n\n"
          + "Payload:\n\(payload.jsonString)",
        uri: "inbox://lint/report", report)
    default:
      throw RPCError(.invalidParams, "Unknown prompt: \(name)", data: ["param": "name", "reason": "no such prompt"])
    }
  }

  private func messages(_ text: String, uri: String, _ attachment: JSONValue) -> JSONValue {
    [
      "messages": [
        ["role": "user", "content": ["type": "text", "text": .string(text)]],
        [
          "role": "user",
          "content": [
            "type": "resource",
            "resource": [
              "uri": .string(uri), "mimeType": "application/json", "text": .string(attachment.jsonString),
            ],
          ],
        ],
      ]
    ]
  }
}
