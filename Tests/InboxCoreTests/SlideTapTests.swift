import InboxCore
import JSON
import Testing

/// Tapping a slide opens its url, or falls back to the message's row action (docs/engine.md#carousel-slides).
@Suite struct SlideTapTests {
  private func carousel(link: String?) throws -> Card {
    var params: JSONObject = [
      "displayType": "carousel",
      "carousel": [
        ["image": "https://cdn.example.com/1.jpg", "url": "myapp://product/1"],
        ["image": "https://cdn.example.com/2.jpg", "url": "https://example.com/p/2"],
        ["image": "https://cdn.example.com/3.jpg"],
        ["image": "https://cdn.example.com/4.jpg", "url": "no scheme"],
      ],
    ]
    if let link { params["l"] = .string(link) }
    let payload: JSONValue = [
      "inbox_id": "c1", "order": "1", "rt": 1, "status": 1, "title": "T", "text": "B", "action_params": .object(params),
    ]
    let card = try Engine.resolve(payload: payload, context: IngestContext(now: 0)).card
    try #require(card.kind == .carousel)
    return card
  }

  /// A custom-scheme url is a deeplink, an http(s) url is openURL.
  @Test func slideURLWins() throws {
    let card = try carousel(link: "https://example.com/row")
    #expect(try card.slideAction(index: 0) == .deeplink("myapp://product/1"))
    #expect(try card.slideAction(index: 1) == .openURL("https://example.com/p/2"))
  }

  /// A slide without a url, or whose url was left out as unparseable, falls back to the row action.
  @Test func slideWithoutURLFallsBack() throws {
    let linked = try carousel(link: "https://example.com/row")
    #expect(try linked.slideAction(index: 2) == .openURL("https://example.com/row"))
    #expect(try linked.slideAction(index: 3) == .openURL("https://example.com/row"))
    let plain = try carousel(link: nil)
    #expect(try plain.slideAction(index: 2) == RowAction.none)
  }

  /// An index outside the slides is an error value naming the index and the count.
  @Test(arguments: [4, -1, 100])
  func outOfRange(index: Int) throws {
    let card = try carousel(link: nil)
    #expect(throws: SlideTapError.self) { try card.slideAction(index: index) }
    do {
      _ = try card.slideAction(index: index)
    } catch {
      #expect(error.index == index)
      #expect(error.slideCount == 4)
      #expect(error.reason == "slide \(index) does not exist: message c1 has 4 slides (0-3)")
    }
  }

  /// A card that is not a carousel (here a degraded one) has no slides to tap.
  @Test func nonCarouselHasNoSlides() throws {
    let payload: JSONValue = [
      "inbox_id": "c2", "order": "1", "rt": 1, "status": 1, "title": "T", "text": "B",
      "action_params": ["displayType": "carousel", "carousel": []],
    ]
    let card = try Engine.resolve(payload: payload, context: IngestContext(now: 0)).card
    #expect(card.kind == .classic)
    #expect(throws: SlideTapError(index: 0, slideCount: 0, reason: "message c2 is a classic card and has no slides")) {
      try card.slideAction(index: 0)
    }
  }
}
