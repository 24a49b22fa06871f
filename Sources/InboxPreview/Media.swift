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
  /// identifier; a link to the stream. Its traits as the web can say them: `.button` is
  /// `role=button`, `.startsMediaSession` (the full-screen player it opens) `aria-haspopup=dialog`;
  /// the playback hint, which has no web counterpart (a page has no ringer switch), and the traits
  /// by name are carried as data attributes for a host that draws its own player.
  static func poster(_ video: VideoContent, labels: CardWords) -> String {
    let label = HTML.attribute("aria-label", labels.playVideo)
    let identifier = HTML.attribute("data-testid", VideoContent.accessibilityIdentifier)
    let traits = HTML.attribute("data-accessibility-traits", VideoContent.accessibilityTraits.joined(separator: " "))
    let hint = HTML.attribute("data-plays-when-silenced", String(VideoContent.playsWhenSilenced))
    var html = "<a class=\"ik-poster\" role=\"button\" aria-haspopup=\"dialog\""
    html += "\(HTML.attribute("href", LinkPolicy.href(video.url)))\(label)\(identifier)\(traits)\(hint)>"
    html += video.poster.map { image($0, alt: labels[.videoPoster]) } ?? "<span class=\"ik-media ik-blank\"></span>"
    return html + "<span class=\"ik-play\" aria-hidden=\"true\">\(Glyph.play)</span></a>"
  }

  /// The wallet card's optional hero image.
  static func walletHero(_ pass: WalletPass, labels: CardWords) -> String {
    image(pass.image, alt: labels[.passImage])
  }

  /// "Add to Apple Wallet" in the card's language (PKAddPassButton's own label), linking to the
  /// pass, with InboxKit's stable identifier.
  static func walletButton(_ pass: WalletPass, labels: CardWords) -> String {
    "<div class=\"ik-wallet-bar\"><a class=\"ik-wallet-add\" role=\"button\""
      + HTML.attribute("href", LinkPolicy.href(pass.pass))
      + HTML.attribute("data-testid", WalletPass.accessibilityIdentifier)
      + "><span aria-hidden=\"true\">\(Glyph.wallet)</span>\(HTML.escape(labels[.addToAppleWallet]))</a></div>"
  }
}
