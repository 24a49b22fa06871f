import JSON
import Posix
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

/// File names are bytes: what is not UTF-8 survives the trip through a `String` and shows escaped.
struct FileNameTests {
  @Test(arguments: [
    [UInt8]("caf".utf8) + [0xE9] + [UInt8](".json".utf8), [0xFF, 0xFE, 0x80], [UInt8]("plain/ü.json".utf8),
    [0xF4, 0x8F, 0xBE, 0x80],  // the UTF-8 of a scalar that stands for a byte: kept as its bytes
    [0xE2, 0x82],  // a sequence cut short
  ])
  func aNameDecodesToTheBytesItCameFrom(_ bytes: [UInt8]) {
    #expect(FileName.bytes(FileName.decode(bytes)) == bytes)
  }

  @Test func aByteThatIsNotUTF8ShowsAsHex() {
    let name = FileName.decode([UInt8]("caf".utf8) + [0xE9] + [UInt8]("\n.json".utf8))
    #expect(name.escapingControlCharacters == #"caf\xE9\n.json"#)
    #expect(PercentEncoding.encode(name) == "caf%E9%0A.json")
  }
}
