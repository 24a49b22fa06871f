import InboxCore
import JSON
import Testing

/// The one URL check (docs/engine.md#parseable-urls): a scheme is required; video and wallet also need http(s)
/// with a host.
@Suite struct ParseableURLTests {
  @Test(arguments: [
    ("https://example.com/a", true, true),
    ("HTTP://EXAMPLE.COM", true, true),
    ("myapp://product/1", true, false),
    ("mailto:a@b.example", true, false),
    ("file:///etc/passwd", true, false),
    ("ftp://media.example.com/clip.mp4", true, false),
    ("https://passes.example.com/p?token=…", true, true),
    ("  https://example.com  ", true, true),
    ("https://", true, false),
    ("example.com", false, false),
    ("cdn.example.com/clip.mp4", false, false),
    ("", false, false),
    ("   ", false, false),
    (":nothing", false, false),
    ("https://exa mple.com", false, false),
  ])
  func classifies(text: String, anyScheme: Bool, httpOnly: Bool) {
    #expect((ParseableURL(text, policy: .anyScheme) != nil) == anyScheme)
    #expect((ParseableURL(text, policy: .httpOnly) != nil) == httpOnly)
  }

  /// The URL keeps the marketer's text (trimmed), not a re-encoded form; the scheme is lower-cased.
  @Test func keepsText() throws {
    let url = try #require(ParseableURL(" HTTPS://passes.example.com/p?token=… ", policy: .httpOnly))
    #expect(url.string == "HTTPS://passes.example.com/p?token=…")
    #expect(url.scheme == "https")
    #expect(url.isHTTP)
  }

  /// Only JSON strings can be URLs.
  @Test func onlyStrings() {
    #expect(ParseableURL(.int(5), policy: .anyScheme) == nil)
    #expect(ParseableURL(nil, policy: .anyScheme) == nil)
    #expect(ParseableURL(.string("https://x.example"), policy: .httpOnly) != nil)
  }
}
