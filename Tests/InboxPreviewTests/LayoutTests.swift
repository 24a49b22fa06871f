import InboxCore
import InboxPreview
import JSON
import Testing

/// Each kind is drawn with the parts InboxKit shows, and the accessibility the seed spells out.
@Suite struct LayoutTests {
  static func card(
    _ data: JSONValue, title: String? = "Title", body: String? = "Body", image: String? = nil,
    attributes: Attributes = Attributes()
  ) throws -> (Card, String) {
    var payload: JSONObject = ["inbox_days": 1, "data": data]
    if let title { payload["ios_title"] = .string(title) }
    if let body { payload["content"] = .string(body) }
    if let image { payload["inbox_image"] = .string(image) }
    let resolution = try Engine.resolve(
      payload: .object(payload), context: IngestContext(id: "m1", now: 1_790_000_000), attributes: attributes)
    return (resolution.card, CardHTML.entry(PreviewEntry(card: resolution.card, warnings: resolution.warnings)))
  }

  @Test func bannerIsAnImageAndNoText() throws {
    let (card, html) = try Self.card(["displayType": "banner"], title: nil, body: nil, image: "https://x.example/b.png")
    #expect(card.kind == .banner)
    #expect(html.contains("<article class=\"ik-card ik-banner ik-is-unread\">"))
    #expect(html.contains("<img class=\"ik-media\" src=\"https://x.example/b.png\" alt=\"Banner image\""))
    #expect(!html.contains("ik-title"))
  }

  @Test func captionedPutsTheImageBeforeTheTitleAndShowsButtons() throws {
    let buttons: JSONValue = [
      ["title": "Claim", "url": "https://example.com"], ["title": "Read", "action": "markRead"],
      ["title": "Save", "action": "custom", "tag": "save"], ["title": "Fourth", "action": "dismiss"],
    ]
    let (_, html) = try Self.card(["displayType": "captioned", "buttons": buttons], image: "https://x.example/c.png")
    let image = try #require(html.firstRange(of: "<img class=\"ik-media\""))
    let title = try #require(html.firstRange(of: "<h2 class=\"ik-title\">Title</h2>"))
    #expect(image.lowerBound < title.lowerBound)
    #expect(
      html.contains(
        "<a class=\"ik-cta ik-cta-link\" href=\"https://example.com\" title=\"openURL https://example.com\">Claim</a>"))
    #expect(html.contains("<button type=\"button\" class=\"ik-cta\" title=\"markRead\">Read</button>"))
    #expect(html.contains("title=\"custom {&quot;tag&quot;:&quot;save&quot;}\">Save</button>"))
    #expect(html.ranges(of: "class=\"ik-cta-cell\"").count == 3)
    #expect(html.contains("<small class=\"ik-cta-action\" aria-hidden=\"true\">mark read</small>"))
    #expect(html.contains("<li><code>buttonDropped</code> button 3"))
  }

  @Test func classicHasTheResolversAvatarAndDate() throws {
    let (card, html) = try Self.card(["pinned": true], title: "sale", body: "Now")
    guard case .classic(let avatar) = card.content else { throw Failure("not classic") }
    #expect(html.contains("style=\"background-color:\(avatar.color)\">S</span>"))
    #expect(html.contains("<span class=\"ik-pin\" role=\"img\" aria-label=\"Pinned\">"))
    #expect(html.contains("<time class=\"ik-date\" datetime=\"2026-09-21T14:13:20Z\">2026-09-21 14:13 UTC</time>"))
    #expect(html.contains("expires 2026-09-22"))
  }

  @Test func carouselSlidesAreButtonsWithPositions() throws {
    let slides: JSONValue = [
      ["image": "https://x.example/1.jpg", "title": "New in", "url": "myapp://product/1"],
      ["image": "https://x.example/2.jpg", "url": "javascript:alert(1)"],
    ]
    let (_, html) = try Self.card(["displayType": "carousel", "carousel": slides])
    #expect(html.contains("<a class=\"ik-slide-tap\" role=\"button\" href=\"myapp://product/1\" aria-label=\"New in\""))
    #expect(html.contains("<button type=\"button\" class=\"ik-slide-tap\" aria-label=\"Slide\""))
    #expect(html.contains("<span class=\"ik-position\">1 of 2</span>"))
    #expect(html.contains("<span class=\"ik-position\">2 of 2</span>"))
  }

  @Test func videoPosterIsOnePlayButton() throws {
    let video: JSONValue = ["url": "https://x.example/v.mp4", "poster": "https://x.example/p.jpg"]
    let (_, html) = try Self.card(["displayType": "video", "video": video])
    #expect(
      html.contains(
        "<a class=\"ik-poster\" role=\"button\" aria-haspopup=\"dialog\" href=\"https://x.example/v.mp4\" "
          + "aria-label=\"Play video\" data-testid=\"inboxkit.video.play\" "
          + "data-accessibility-traits=\"button startsMediaSession\" data-plays-when-silenced=\"true\">"))
  }

  @Test func walletHasTheAddButtonOnIOSAndDegradesElsewhere() throws {
    let data: JSONValue = ["displayType": "wallet", "wallet": "https://passes.example/p.pkpass"]
    let (_, html) = try Self.card(data, attributes: Attributes(platform: "ios"))
    #expect(html.contains("href=\"https://passes.example/p.pkpass\" data-testid=\"inboxkit.wallet.add\">"))
    #expect(html.contains("Add to Apple Wallet</a>"))
    let (card, degraded) = try Self.card(data)
    #expect(card.kind == .classic)
    #expect(degraded.contains("<p class=\"ik-degraded\">degraded from wallet: the host cannot add wallet passes"))
    #expect(!degraded.contains("inboxkit.wallet.add"))
  }

  @Test func unreadMarkerOnlyOnUnreadCards() throws {
    let (card, html) = try Self.card([:])
    #expect(html.contains("<span class=\"ik-unread\" role=\"img\" aria-label=\"Unread\"></span>"))
    var read = card
    read.read = true
    let drawn = CardHTML.entry(PreviewEntry(card: read))
    #expect(!drawn.contains("ik-unread"))
    #expect(drawn.contains("<b>m1</b> classic · read · "))
  }

  @Test func pageIsSelfContained() throws {
    let (card, _) = try Self.card([:])
    let page = PreviewPage.html([PreviewEntry(card: card)], options: .init(subtitle: "<x>", theme: .dark))
    #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\" data-theme=\"dark\">"))
    #expect(page.contains("script-src 'none'"))
    #expect(page.contains("1 card · &lt;x&gt;"))
    #expect(!page.contains("<script"))
    #expect(!page.contains("<link"))
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
