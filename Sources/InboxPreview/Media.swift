import InboxCore

/// Images and the media controls: a remote image, the video poster, the wallet hero and button.
enum Media {
  /// A full-width image. An image that does not load keeps its box (the aspect ratio is set in CSS)
  /// and shows its alt text; a URL that is not http(s) is drawn as that placeholder without loading.
  static func image(_ url: String?, alt: String, className: String = "ik-media") -> String {
    guard let url else { return "" }
    guard let source = LinkPolicy.imageSource(url) else {
      return "<span class=\"\(className) ik-missing\" role=\"img\"\(HTML.attribute("aria-label", alt))>"
        + "\(HTML.escape(alt))</span>"
    }
    return "<img class=\"\(className)\"\(HTML.attribute("src", source))\(HTML.attribute("alt", alt))"
      + " referrerpolicy=\"no-referrer\" decoding=\"async\">"
  }

  /// The poster as one button, "Play video" in the card's language, with InboxKit's stable
  /// identifier; a link to the stream.
  static func poster(_ video: VideoContent, labels: AccessibilityLabels) -> String {
    let label = HTML.attribute("aria-label", labels.playVideo)
    let identifier = HTML.attribute("data-testid", VideoContent.accessibilityIdentifier)
    var html = "<a class=\"ik-poster\" role=\"button\"\(HTML.attribute("href", LinkPolicy.href(video.url)))"
    html += "\(label)\(identifier)>"
    html += video.poster.map { image($0, alt: "Video poster") } ?? "<span class=\"ik-media ik-blank\"></span>"
    return html + "<span class=\"ik-play\" aria-hidden=\"true\">\(Glyph.play)</span></a>"
  }

  /// The wallet card's optional hero image.
  static func walletHero(_ pass: WalletPass) -> String {
    image(pass.image, alt: "Pass image")
  }

  /// "Add to Apple Wallet", linking to the pass, with InboxKit's stable identifier.
  static func walletButton(_ pass: WalletPass) -> String {
    "<div class=\"ik-wallet-bar\"><a class=\"ik-wallet-add\" role=\"button\""
      + HTML.attribute("href", LinkPolicy.href(pass.pass))
      + HTML.attribute("data-testid", WalletPass.accessibilityIdentifier)
      + "><span aria-hidden=\"true\">\(Glyph.wallet)</span>Add to Apple Wallet</a></div>"
  }
}
