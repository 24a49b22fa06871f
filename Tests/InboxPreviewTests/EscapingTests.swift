import InboxCore
import InboxPreview
import JSON
import Testing

/// Everything the page copies from a payload is text, and only safe URLs become links.
@Suite struct EscapingTests {
  static let hostile = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "a'b&c", "</style><b>x"]

  @Test func escapeReplacesEveryMarkupCharacter() {
    #expect(HTML.escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
    #expect(HTML.escape("\"><img src=x onerror=alert(1)>") == "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
    #expect(HTML.escape("Tom & Jerry's") == "Tom &amp; Jerry&#39;s")
    #expect(HTML.escape("plain é 😀") == "plain é 😀")
  }

  @Test(arguments: [
    ("https://example.com/a?b=1", "https://example.com/a?b=1"),
    (" http://example.com ", "http://example.com"),
    ("myapp://product/1", "myapp://product/1"),
  ])
  func linksThatStay(text: String, href: String) {
    #expect(LinkPolicy.href(text) == href)
  }

  @Test(arguments: [
    "javascript:alert(1)", "JavaScript:alert(1)", "javascript://%0Aalert(1)", "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>", "data:text/html;base64,PHNjcmlwdD4=", "file:///etc/passwd",
    "intent://scan/#Intent;scheme=zxing;end", "blob:https://example.com/x", "about:blank", "java\tscript:alert(1)",
    "example.com", "http:no-host", "mailto:a@b.c", "", "https://exa mple.com",
  ])
  func linksThatNeverBecomeHrefs(text: String) {
    #expect(LinkPolicy.href(text) == nil)
  }

  @Test func imagesLoadOnlyOverHTTP() {
    #expect(LinkPolicy.imageSource("https://cdn.example.com/a.png") == "https://cdn.example.com/a.png")
    #expect(LinkPolicy.imageSource("file:///etc/passwd") == nil)
    #expect(LinkPolicy.imageSource("data:image/png;base64,AAAA") == nil)
    #expect(LinkPolicy.imageSource("myapp://image") == nil)
  }

  /// A hostile payload: its strings appear only escaped, and its javascript: URLs are not links,
  /// even for a host that let the engine pass the scheme (the page has its own defence).
  @Test(arguments: hostile)
  func hostileTextIsNeverMarkup(text: String) throws {
    let payload: JSONValue = [
      "ios_title": .string(text), "content": .string(text), "inbox_days": 1,
      "data": [
        "displayType": "classic", "promo": .string(text),
        "buttons": [
          ["title": .string(text), "url": "javascript:alert(1)"],
          ["title": "Go", "url": .string("https://example.com/?q=" + text)],
          ["title": "Save", "action": "custom", "tag": .string(text)],
        ],
      ],
    ]
    var attributes = Attributes()
    attributes.allowedSchemes = ["javascript"]
    let card = try Engine.resolve(payload: payload, context: IngestContext(id: "m\"1<", now: 0), attributes: attributes)
      .card
    let html = CardHTML.entry(PreviewEntry(card: card, warnings: []))
    #expect(!html.contains(text))
    #expect(html.contains(HTML.escape(text)))
    // The action is shown in the tooltip as text, never as a link.
    #expect(html.contains("title=\"openURL javascript:alert(1)\""))
    #expect(!html.contains("href=\"javascript"))
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("<img src=x"))
    #expect(html.contains("data-id=\"m&quot;1&lt;\""))
  }
}
