import InboxCore

/// Inline buttons (up to three) under captioned and classic cards: each a real link or button named
/// by its title, with its action in the tooltip and in a small caption under it.
enum Buttons {
  static func row(_ buttons: [InlineButton]) -> String {
    guard !buttons.isEmpty else { return "" }
    var html = "<div class=\"ik-buttons\">"
    for button in buttons.prefix(InlineButton.maximumCount) {
      let detail = HTML.attribute("title", Describe.button(button.action))
      let caption = Describe.caption(button.action)
      html += "<div class=\"ik-cta-cell\">"
      if case .openURL(let url) = button.action, let href = LinkPolicy.href(url) {
        html += "<a class=\"ik-cta ik-cta-link\"\(HTML.attribute("href", href))\(detail)>"
        html += "\(HTML.escape(button.title))</a>"
      } else {
        html += "<button type=\"button\" class=\"ik-cta\"\(detail)>\(HTML.escape(button.title))</button>"
      }
      html += "<small class=\"ik-cta-action\" aria-hidden=\"true\">\(caption)</small></div>"
    }
    return html + "</div>"
  }
}
