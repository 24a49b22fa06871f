import InboxCore

/// One card drawn as InboxKit lays it out, with the preview's notes beside it: pure HTML from a
/// resolved card, every payload string escaped, no script, classes from `PreviewStyle`.
public enum CardHTML {
  /// `<section class="ik-entry">`: the card, then its notes (degradation, warnings, dates, row action).
  /// `swipeToDelete` draws the row's delete action, as InboxKit shows it when the row is swiped.
  public static func entry(_ entry: PreviewEntry, swipeToDelete: Bool = true) -> String {
    guard let card = entry.card else {
      var html = "<section class=\"ik-entry ik-refused\"\(HTML.attribute("data-label", entry.label))>"
      html += "<p class=\"ik-refusal\">not an inbox message: \(HTML.escape(entry.refusal ?? ""))</p>"
      return html + Notes.aside(entry) + "</section>"
    }
    var html = "<section class=\"ik-entry\"\(HTML.attribute("data-id", card.id))"
    html += " data-kind=\"\(card.kind.rawValue)\" data-requested-kind=\"\(card.requestedKind.rawValue)\""
    html += HTML.attribute("data-label", entry.label) + ">"
    return html + article(card) + (swipeToDelete ? deleteAction(card.labels) : "") + Notes.aside(entry) + "</section>"
  }

  /// The action a swipe reveals, in the card's language: it stands for `message.dismiss {swipe: true}`.
  static func deleteAction(_ words: CardWords) -> String {
    "<div class=\"ik-swipe\"><button type=\"button\" class=\"ik-delete\" title=\"message.dismiss (swipe)\">"
      + HTML.escape(words[.delete]) + "</button></div>"
  }

  /// `<article class="ik-card ik-KIND">`: the cell itself, every word it draws in the card's language
  /// (`CardWords`).
  static func article(_ card: Card) -> String {
    let words = card.labels
    var html = "<article class=\"ik-card ik-\(card.kind.rawValue)\(card.read ? "" : " ik-is-unread")\">"
    if !card.read {
      html += "<span class=\"ik-unread\" role=\"img\"\(HTML.attribute("aria-label", words[.unread]))></span>"
    }
    if card.pinned {
      html += "<span class=\"ik-pin\" role=\"img\"\(HTML.attribute("aria-label", words[.pinned]))>\(Glyph.pin)</span>"
    }
    switch card.content {
    case .banner:
      html += Media.image(card.image, alt: card.title ?? card.body ?? words[.bannerImage])
    case .captioned:
      html += Media.image(card.image, alt: card.title ?? words[.image]) + text(card) + Buttons.row(card.buttons)
    case .classic(let avatar):
      html += "<div class=\"ik-row\"><span class=\"ik-avatar\" aria-hidden=\"true\""
      html += HTML.attribute("style", "background-color:\(safeColor(avatar.color))") + ">"
      html += HTML.escape(avatar.initial) + "</span>" + text(card) + "</div>" + Buttons.row(card.buttons)
    case .carousel(let slides):
      html += Carousel.strip(slides, rowAction: card.rowAction, labels: card.labels) + text(card)
    case .video(let video):
      html += Media.poster(video, labels: card.labels) + text(card)
    case .wallet(let pass):
      html += Media.walletHero(pass, labels: words) + text(card) + Media.walletButton(pass, labels: words)
    }
    return html + "</article>"
  }

  /// Title, body and sent date under (or beside) the media.
  static func text(_ card: Card) -> String {
    var html = "<div class=\"ik-text\">"
    if let title = card.title { html += "<h2 class=\"ik-title\">\(HTML.escape(title))</h2>" }
    if let body = card.body { html += "<p class=\"ik-body\">\(HTML.escape(body))</p>" }
    return html + PreviewDate.element(card.sentAt, "", className: "ik-date") + "</div>"
  }

  /// The avatar colour comes from the resolver's palette; anything else is not put in a style.
  static func safeColor(_ color: String) -> String {
    let hex = color.utf8.dropFirst()
    let isHex =
      color.utf8.first == UInt8(ascii: "#") && hex.count == 6
      && hex.allSatisfy { byte in
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      }
    return isHex ? color : "#8E8E93"
  }
}
