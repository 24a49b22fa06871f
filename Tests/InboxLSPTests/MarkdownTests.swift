import Testing

@testable import InboxLSP

/// Payload text in a hover is a code span: shown as written, whatever Markdown or HTML it spells.
struct MarkdownTests {
  @Test(arguments: [
    ("[x](javascript:alert(1))", "`[x](javascript:alert(1))`"),
    ("<img src=x onerror=alert(1)>", "`<img src=x onerror=alert(1)>`"),
    ("https://cdn.example.com/a.png", "`https://cdn.example.com/a.png`"),
    ("{\"type\":\"none\"}", "`{\"type\":\"none\"}`"),
    ("**b** _i_ `c`", "`` **b** _i_ `c` ``"),
    ("`a``b`", "``` `a``b` ```"),
    (" both ", "`  both  `"),
    ("  ", "`  `"),
    ("", "` `"),
    ("# h\n- l", "`# h\\n- l`"),
  ])
  func codeSpan(text: String, span: String) {
    #expect(Markdown.code(text) == span)
  }
}
