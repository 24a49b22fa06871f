import InboxCore

/// The carousel: a strip of 1-5 full-width slides that snaps one slide at a time, each slide a
/// button named by its caption (or "Slide"), with a page indicator that says "n of m", in the
/// language of the card's labels.
///
/// No script: the strip scrolls sideways with CSS scroll snapping, and each slide carries its own
/// indicator, so the one in view is always the current position.
enum Carousel {
  static func strip(_ slides: [CarouselSlide], rowAction: RowAction, labels: CardWords) -> String {
    var html = "<div class=\"ik-strip\" role=\"group\" aria-roledescription=\"carousel\""
    html += HTML.attribute("aria-label", labels[.slides]) + ">"
    for (index, slide) in slides.enumerated() {
      let position = labels.position(index: index, count: slides.count)
      html += "<div class=\"ik-slide\" role=\"group\" aria-roledescription=\"slide\""
      html += HTML.attribute("aria-label", position) + ">"
      html += tap(slide, action: slide.tapAction ?? rowAction, label: slide.accessibilityLabel(labels))
      html += "<p class=\"ik-indicator\"><span class=\"ik-dots\" aria-hidden=\"true\">"
      for dot in slides.indices { html += dot == index ? "<i class=\"ik-on\"></i>" : "<i></i>" }
      html += "</span><span class=\"ik-position\">\(position)</span></p></div>"
    }
    return html + "</div>"
  }

  /// The slide's button: a link when its tap goes to a URL the page may link, else a plain button.
  private static func tap(_ slide: CarouselSlide, action: RowAction, label text: String) -> String {
    let inside =
      Media.image(slide.image, alt: text)
      + (slide.title.map { "<span class=\"ik-caption\">\(HTML.escape($0))</span>" } ?? "")
    let label = HTML.attribute("aria-label", text)
    let described = HTML.attribute("title", Describe.rowAction(action))
    if let href = Describe.target(action).flatMap(LinkPolicy.href) {
      return
        "<a class=\"ik-slide-tap\" role=\"button\"\(HTML.attribute("href", href))\(label)\(described)>\(inside)</a>"
    }
    return "<button type=\"button\" class=\"ik-slide-tap\"\(label)\(described)>\(inside)</button>"
  }
}
