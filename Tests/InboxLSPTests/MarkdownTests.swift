import Testing

@testable import InboxLSP

/// Payload text in a hover is text, whatever Markdown or HTML it spells.
struct MarkdownTests {
  @Test(arguments: [
    ("[x](javascript:alert(1))", "\\[x\\]\\(javascript\\:alert\\(1\\)\\)"),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert\\(1\\)&gt;"),
    ("![i](http://h/p.png)", "\\!\\[i\\]\\(http\\://h/p\\.png\\)"),
    ("**b** _i_ `c`", "\\*\\*b\\*\\* \\_i\\_ \\`c\\`"),
    ("# h\n- l", "\\# h\\\\n\\- l"),
    ("&amp;", "&amp;amp;"),
  ])
  func escapes(text: String, escaped: String) {
    #expect(Markdown.text(text) == escaped)
  }
}
