import JSON

/// The short text a person reads beside a tool's structured result.
/// Every line is joined by `text(_:)`, so payload text shows its control characters and line breaks
/// escaped: a title cannot forge a button, a card or a line of the agent's reading.
enum ToolText {
  static func feed(_ page: JSONValue) -> String {
    var lines: [String] = []
    for card in page["items"]?.arrayValue ?? [] {
      let marks = (card["read"]?.boolValue == true ? " " : "*") + (card["pinned"]?.boolValue == true ? "P" : " ")
      lines.append("\(marks) \(string(card, "id"))  \(string(card, "kind"))  \(sent(card))  \(headline(card))")
      if let degraded = card["degraded"], !degraded.isNull {
        lines.append("     degraded from \(string(degraded, "from")): \(string(degraded, "reason"))")
      }
      if let buttons = buttons(card) { lines.append("     " + buttons) }
      if let slides = slides(card) { lines.append("     " + slides) }
    }
    let shown = page["items"]?.arrayValue?.count ?? 0
    lines.append("\(shown) shown (* unread, P pinned); " + counts(page["counts"] ?? .null))
    if let cursor = page["nextCursor"]?.stringValue { lines.append("more: list_feed with cursor \"\(cursor)\"") }
    return text(lines)
  }

  static func card(_ card: JSONValue) -> String {
    var lines = ["\(string(card, "id"))  \(string(card, "kind"))"]
    if let degraded = card["degraded"], !degraded.isNull { lines.append("degraded: \(string(degraded, "reason"))") }
    lines.append("title: \(card["title"]?.stringValue ?? "-")")
    lines.append("body: \(card["body"]?.stringValue ?? "-")")
    if let image = card["image"]?.stringValue { lines.append("image: \(image)") }
    var state = [card["read"]?.boolValue == true ? "read" : "unread"]
    if card["actionPerformed"]?.boolValue == true { state.append("opened") }
    if card["pinned"]?.boolValue == true { state.append("pinned") }
    lines.append("state: " + state.joined(separator: ", "))
    lines.append("row action: " + action(card["rowAction"] ?? .null))
    for (index, button) in (card["buttons"]?.arrayValue ?? []).enumerated() {
      lines.append("button \(index): \(string(button, "title")): \(action(button["action"] ?? .null))")
    }
    for (index, slide) in (card["carousel"]?.arrayValue ?? []).enumerated() {
      lines.append("slide \(index): \(string(slide, "title")): \(slide["url"]?.stringValue ?? "the row action")")
    }
    if let data = card["customData"], !data.isNull { lines.append("custom data: \(data.jsonString)") }
    return text(lines)
  }

  static func counts(_ counts: JSONValue) -> String {
    "total \(int(counts, "total")), unread \(int(counts, "unread")), unactioned \(int(counts, "unactioned")), "
      + "pinned \(int(counts, "pinned")), unseen \(int(counts, "unseen"))"
  }

  static func tap(_ result: JSONValue) -> String {
    let message = result["message"] ?? .null
    var lines = [
      "tapped \(string(message, "id")): \(headline(message))", "action: \(action(result["action"] ?? .null))",
      "state: \(state(message))",
    ]
    if let buttons = buttons(message) { lines.append("buttons: " + buttons) }
    if let data = result["customData"], !data.isNull { lines.append("custom data: \(data.jsonString)") }
    return text(lines)
  }

  static func buttonTap(_ result: JSONValue) -> String {
    var lines = ["action: " + action(result["action"] ?? .null)]
    lines.append(result["performed"]?.boolValue == true ? "performed: yes" : "performed: no (the host acts on it)")
    if let message = result["message"], !message.isNull {
      lines.append("message \(string(message, "id")): \(state(message))")
      if let buttons = buttons(message) { lines.append("buttons: " + buttons) }
    } else {
      lines.append("the message left the feed")
    }
    return text(lines)
  }

  static func slideTap(_ result: JSONValue) -> String {
    let message = result["message"] ?? .null
    var lines = ["action: " + action(result["action"] ?? .null), "message \(string(message, "id")): \(state(message))"]
    if let buttons = buttons(message) { lines.append("buttons: " + buttons) }
    if let slides = slides(message) { lines.append(slides) }
    return text(lines)
  }

  static func seen(_ result: JSONValue) -> String {
    var lines = ["newly read: " + ids(result["read"])]
    if let unknown = result["unknown"]?.arrayValue, !unknown.isEmpty {
      lines.append("not in the feed: " + ids(result["unknown"]))
    }
    return text(lines)
  }

  static func videoPlay(_ result: JSONValue) -> String {
    let video = result["video"] ?? .null
    let message = result["message"] ?? .null
    return text([
      "play: \(string(video, "url"))", "poster: \(video["poster"]?.stringValue ?? "-")",
      "message \(string(message, "id")): \(state(message))",
    ])
  }

  static func walletPass(_ result: JSONValue) -> String {
    let pass = result["pass"] ?? .null
    let message = result["message"] ?? .null
    return text([
      "pass file: \(string(pass, "path"))", "size: \(int(pass, "size")) bytes, sha256 \(string(pass, "sha256"))",
      "from: \(string(pass, "url"))", "message \(string(message, "id")): \(state(message))",
    ])
  }

  static func walletReport(_ result: JSONValue) -> String {
    let message = result["message"] ?? .null
    let outcome = result["outcome"]?.stringValue == "added" ? "added to the Wallet" : "not added"
    var lines = ["pass of \(string(result, "id")): \(outcome)"]
    if let reason = result["reason"]?.stringValue { lines.append("reason: \(reason)") }
    lines.append("message \(string(message, "id")): \(state(message))")
    return text(lines)
  }

  private static func ids(_ list: JSONValue?) -> String {
    let ids = list?.arrayValue?.compactMap(\.stringValue) ?? []
    return ids.isEmpty ? "none" : ids.joined(separator: ", ")
  }

  private static func state(_ card: JSONValue) -> String {
    var state = [card["read"]?.boolValue == true ? "read" : "unread"]
    if card["actionPerformed"]?.boolValue == true { state.append("opened") }
    return state.joined(separator: ", ")
  }

  static func markRead(_ result: JSONValue) -> String {
    var text = "marked read: changed \(int(result, "changed"))"
    if let unchanged = result["unchanged"]?.arrayValue, !unchanged.isEmpty {
      text += "; unchanged: " + unchanged.compactMap(\.stringValue).joined(separator: ", ")
    }
    return text.escapingControlCharacters
  }

  static func dismiss(_ result: JSONValue) -> String {
    result["dismissed"]?.boolValue == true ? "dismissed" : "already dismissed"
  }

  static func cleared(_ result: JSONValue) -> String { "dismissed \(int(result, "dismissed"))" }

  static func markedSeen(_ result: JSONValue) -> String { "marked seen: changed \(int(result, "changed"))" }

  static func ingest(_ result: JSONValue) -> String {
    "\(result["outcome"]?.stringValue ?? "stored"): " + card(result["message"] ?? .null)
  }

  static func sync(_ report: JSONValue) -> String {
    var lines = [
      ["added", "updated", "removed", "expired", "pushed", "pending", "failed"]
        .map { "\($0) \(int(report, $0))" }.joined(separator: ", ")
    ]
    if report["throttled"]?.boolValue == true { lines[0] += " (fetch throttled: the last one was recent)" }
    if let error = report["pushError"]?["message"]?.stringValue { lines.append("push failed: \(error)") }
    return text(lines)
  }

  static func lint(_ report: JSONValue) -> String {
    var lines: [String] = []
    for entry in report["payloads"]?.arrayValue ?? [] {
      let label = string(entry, "label")
      if let card = entry["card"], !card.isNull {
        lines.append("\(label): \(string(card, "kind")) card \(string(card, "id")) \"\(headline(card))\"")
      } else {
        lines.append("\(label): not an inbox message: \(entry["refusal"]?.stringValue ?? "")")
      }
      for problem in entry["schemaProblems"]?.arrayValue ?? [] {
        lines.append("  schema  \(string(problem, "path")): \(string(problem, "message"))")
      }
      for warning in entry["warnings"]?.arrayValue ?? [] {
        lines.append("  warning [\(string(warning, "code"))] \(string(warning, "reason"))")
      }
      let clean =
        (entry["refusal"]?.isNull ?? true) && (entry["warnings"]?.arrayValue?.isEmpty ?? true)
        && (entry["schemaProblems"]?.arrayValue?.isEmpty ?? true)
      if clean { lines.append("  ok") }
    }
    return text(lines)
  }

  // MARK: - Pieces

  /// Lines joined for reading, each kept one line whatever payload text it holds.
  static func text(_ lines: [String]) -> String {
    lines.map(\.escapingControlCharacters).joined(separator: "\n")
  }

  static func action(_ action: JSONValue) -> String {
    let type = string(action, "type")
    switch type {
    case "openURL", "deeplink": return "\(type) \(string(action, "url"))"
    case "richMedia": return "richMedia \(string(action, "code"))"
    case "custom": return "custom \((action["payload"] ?? .null).jsonString)"
    default: return type
    }
  }

  private static func buttons(_ card: JSONValue) -> String? {
    let buttons = card["buttons"]?.arrayValue ?? []
    guard !buttons.isEmpty else { return nil }
    return buttons.enumerated().map { "[\($0)] \(string($1, "title")): \(action($1["action"] ?? .null))" }
      .joined(separator: "  ")
  }

  private static func slides(_ card: JSONValue) -> String? {
    let slides = card["carousel"]?.arrayValue ?? []
    guard !slides.isEmpty else { return nil }
    return "slides: "
      + slides.enumerated().map { "[\($0)] \(string($1, "title")): \($1["url"]?.stringValue ?? "the row action")" }
      .joined(separator: "  ")
  }

  private static func headline(_ card: JSONValue) -> String {
    card["title"]?.stringValue ?? card["body"]?.stringValue ?? card["image"]?.stringValue ?? "(no title)"
  }

  private static func sent(_ card: JSONValue) -> String {
    guard let sent = card["sentAt"]?.stringValue else { return "-" }
    return String(sent.replacingFirstT.prefix(16))
  }

  private static func string(_ value: JSONValue, _ key: String) -> String { value[key]?.stringValue ?? "-" }
  private static func int(_ value: JSONValue, _ key: String) -> Int64 { value[key]?.intValue ?? 0 }
}

extension String {
  fileprivate var replacingFirstT: String {
    guard let index = firstIndex(of: "T") else { return self }
    var copy = self
    copy.replaceSubrange(index...index, with: " ")
    return copy
  }
}
