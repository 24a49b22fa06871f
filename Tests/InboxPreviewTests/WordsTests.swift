import InboxCore
import InboxPreview
import JSON
import Testing

/// Every word a drawn card shows or announces comes from the table of its locale (`CardWords`), and
/// the swipe and pull affordances follow their switches.
@Suite struct WordsTests {
  /// One card of each kind that draws words of its own, unread, the first pinned.
  static let payloads: [JSONValue] = [
    [
      "inbox_days": 1, "inbox_image": "https://x.example/b.png",
      "data": ["displayType": "banner", "pinned": true],
    ],
    [
      "inbox_days": 1, "content": "Body", "inbox_image": "https://x.example/c.png",
      "data": ["displayType": "captioned"],
    ],
    [
      "inbox_days": 1, "ios_title": "T", "content": "B",
      "data": ["displayType": "carousel", "carousel": [["image": "https://x.example/1.jpg"]]],
    ],
    [
      "inbox_days": 1, "ios_title": "T", "content": "B",
      "data": [
        "displayType": "video", "video": ["url": "https://x.example/v.mp4", "poster": "https://x.example/p.jpg"],
      ],
    ],
    [
      "inbox_days": 1, "ios_title": "T", "content": "B",
      "data": [
        "displayType": "wallet", "wallet": "https://passes.example/p.pkpass", "image": "https://x.example/h.png",
      ],
    ],
  ]

  static func page(locale: String?, swipeToDelete: Bool = true, pullToRefresh: Bool = true) throws -> String {
    var attributes = Attributes(platform: "ios")
    attributes.locale = locale
    attributes.swipeToDelete = swipeToDelete
    attributes.pullToRefresh = pullToRefresh
    let entries = try payloads.enumerated().map { index, payload in
      let resolution = try Engine.resolve(
        payload: payload, context: IngestContext(id: "m\(index)", now: 1_790_000_000), attributes: attributes)
      return PreviewEntry(card: resolution.card, warnings: resolution.warnings)
    }
    return PreviewPage.html(entries, options: .init(attributes: attributes))
  }

  /// The attribute values and texts the page draws for each word, escaped as HTML writes them.
  static func drawn(_ word: String) -> [String] {
    ["aria-label=\"\(word)\"", "alt=\"\(word)\"", "</span>\(word)</a>", ">\(word)</button>", "</span>\(word)</button>"]
  }

  @Test(arguments: ["de-AT", "es", "pt-BR", "zh", "ru", "fr"])
  func everyWordIsTheLocalesOwn(locale: String) throws {
    let html = try Self.page(locale: locale)
    let words = CardWords.forLocale(locale)
    // A captioned card always has a title, its image's name: `.image` is drawn by none of them.
    for word in CardWords.Word.allCases where word != .image {
      #expect(Self.drawn(words[word]).contains { html.contains($0) }, "\(locale): \(word) as \(words[word])")
    }
    #expect(html.contains("<html lang=\"\(words.language)\""))
    for word in CardWords.Word.allCases where words[word] != CardWords.english[word] {
      #expect(!Self.drawn(CardWords.english[word]).contains { html.contains($0) }, "\(locale): English \(word)")
    }
  }

  /// What the lint checks is what the cell draws: each word `DrawnWords` lists is in the card's HTML.
  @Test(arguments: ["de", "zh"])
  func theDrawnWordsAreTheCellsWords(locale: String) throws {
    var attributes = Attributes(platform: "ios")
    attributes.locale = locale
    for (index, payload) in Self.payloads.enumerated() {
      let card = try Engine.resolve(
        payload: payload, context: IngestContext(id: "w\(index)", now: 1), attributes: attributes
      ).card
      let html = CardHTML.entry(PreviewEntry(card: card))
      let listed = DrawnWords.of(card)
      #expect(listed.contains(.delete) && listed.contains(.unread))
      for word in listed {
        #expect(Self.drawn(card.labels[word]).contains { html.contains($0) }, "\(card.kind): \(word)")
      }
    }
  }

  @Test func germanWalletButtonAndRefreshAsThePageWordsThem() throws {
    let html = try Self.page(locale: "de")
    #expect(html.contains("Zu Apple Wallet hinzufügen</a>"))
    #expect(html.contains("class=\"ik-refresh-control\""))
    #expect(html.contains(">Löschen</button>"))
    #expect(html.contains("aria-label=\"Unread\""))  // no page gives it: English
  }

  @Test func switchedOffTheGesturesDrawNothing() throws {
    let off = try Self.page(locale: "de", swipeToDelete: false, pullToRefresh: false)
    #expect(!off.contains("class=\"ik-delete\"") && !off.contains("class=\"ik-refresh-control\""))
    let swipeOnly = try Self.page(locale: nil, pullToRefresh: false)
    #expect(swipeOnly.contains(">Delete</button>") && !swipeOnly.contains("class=\"ik-refresh-control\""))
    let fragment = try #require(
      try Engine.resolve(payload: Self.payloads[1], context: IngestContext(id: "f", now: 1), attributes: Attributes())
        .card as Card?)
    #expect(!PreviewPage.fragment(PreviewEntry(card: fragment), swipeToDelete: false).contains("class=\"ik-delete\""))
    #expect(PreviewPage.fragment(PreviewEntry(card: fragment)).contains("ik-delete"))
  }
}
