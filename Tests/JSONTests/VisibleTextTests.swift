import JSON
import Testing

/// Payload text shown to people and agents: controls and line breaks become visible escapes.
struct VisibleTextTests {
  @Test func controlsLineBreaksAndBidiOverridesAreEscaped() {
    #expect("a\nb\r\tc".escapingControlCharacters == "a\\nb\\r\\tc")
    #expect("\u{1B}]0;title\u{07}".escapingControlCharacters == "\\u001b]0;title\\u0007")
    #expect("x\u{7F}\u{9B}2J".escapingControlCharacters == "x\\u007f\\u009b2J")
    #expect("l\u{2028}p\u{2029}r\u{202E}i\u{2066}".escapingControlCharacters == "l\\u2028p\\u2029r\\u202ei\\u2066")
    #expect("\u{0}".escapingControlCharacters == "\\u0000")
  }

  @Test func printableTextIsKeptAsItIs() {
    let text = "Café ☕️ 日本 \\n already a backslash — «quoted»"
    #expect(text.escapingControlCharacters == text)
    #expect(!"zz\ninbox-rpc error: forged".escapingControlCharacters.contains("\n"))
  }
}
