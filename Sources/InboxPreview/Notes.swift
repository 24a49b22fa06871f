import InboxCore

/// What the preview says beside a card: the degradation as a visible note ("degraded from
/// carousel: …", the resolver's reason), the other warnings, and the facts the cell does not show
/// (where it came from, read and pinned state, sent and expiry dates, what a row tap does).
enum Notes {
  static func aside(_ entry: PreviewEntry) -> String {
    var html = "<aside class=\"ik-notes\">"
    if let degradation = entry.card?.degradation {
      html += "<p class=\"ik-degraded\">degraded from \(degradation.from.rawValue): "
      html += "\(HTML.escape(degradation.reason))</p>"
    }
    let warnings = entry.warnings.filter { $0.code != .degraded }
    if !warnings.isEmpty || !entry.problems.isEmpty {
      html += "<ul class=\"ik-warnings\">"
      for warning in warnings {
        html += "<li><code>\(HTML.escape(warning.code.rawValue))</code> \(HTML.escape(warning.reason))</li>"
      }
      for problem in entry.problems { html += "<li><code>schema</code> \(HTML.escape(problem))</li>" }
      html += "</ul>"
    }
    return html + meta(entry) + "</aside>"
  }

  private static func meta(_ entry: PreviewEntry) -> String {
    var parts: [String] = []
    if let label = entry.label { parts.append(HTML.escape(label)) }
    if let card = entry.card {
      var kind = card.kind.rawValue
      if card.requestedKind != card.kind { kind += " (asked for \(card.requestedKind.rawValue))" }
      parts.append("<b>\(HTML.escape(card.id))</b> \(kind)")
      parts.append((card.read ? "read" : "unread") + (card.pinned ? ", pinned" : ""))
      let sent = PreviewDate.element(card.sentAt, "sent ", className: "ik-sent")
      parts.append(sent.isEmpty ? "no send date" : sent)
      let expires = PreviewDate.element(card.expiresAt, "expires ", className: "ik-expires")
      parts.append(expires.isEmpty ? "never expires" : expires)
      parts.append("tap: \(HTML.escape(Describe.rowAction(card.rowAction)))")
    }
    return "<p class=\"ik-meta\">\(parts.joined(separator: " · "))</p>"
  }
}
