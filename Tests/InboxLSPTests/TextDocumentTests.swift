import Testing

@testable import InboxLSP

/// Positions in each encoding and edits as `didChange` sends them.
struct TextDocumentTests {
  // "é" is 2 UTF-8 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 units, 1 scalar.
  static let text = "{\n  \"t\": \"é😀x\"\r\n}\n"

  @Test(arguments: [(PositionEncoding.utf8, 14), (.utf16, 11), (.utf32, 10)])
  func countsEachEncoding(encoding: PositionEncoding, character: Int) {
    let document = TextDocument(uri: "u", version: 1, text: Self.text)
    let x = Array(Self.text.utf8).firstIndex(of: UInt8(ascii: "x"))!
    #expect(document.position(ofOffset: x, encoding: encoding) == (1, character))
    #expect(document.offset(line: 1, character: character, encoding: encoding) == x)
  }

  @Test func positionsPastTheEndClamp() {
    let document = TextDocument(uri: "u", version: 1, text: Self.text)
    #expect(document.offset(line: 0, character: 99, encoding: .utf16) == 1)
    #expect(document.offset(line: 9, character: 0, encoding: .utf16) == Self.text.utf8.count)
    #expect(document.lineCount == 4)
  }

  @Test func incrementalEditsReplaceTheirRange() {
    var document = TextDocument(uri: "u", version: 1, text: "ab\ncd\n")
    let start = document.offset(line: 1, character: 1, encoding: .utf16)
    document.replace(from: start, to: start, with: "X\nY", version: 2)
    #expect(document.text == "ab\ncX\nYd\n")
    #expect(document.version == 2)
    #expect(document.lineCount == 4)
    document.replaceAll(with: "z", version: 3)
    #expect(document.text == "z")
  }

  @Test func negotiationPrefersUTF8ThenUTF32() {
    #expect(PositionEncoding.negotiate(nil) == .utf16)
    #expect(PositionEncoding.negotiate(["utf-16"]) == .utf16)
    #expect(PositionEncoding.negotiate(["utf-32", "utf-16"]) == .utf32)
    #expect(PositionEncoding.negotiate(["utf-16", "utf-32", "utf-8"]) == .utf8)
    #expect(PositionEncoding.negotiate(["latin-1"]) == .utf16)
  }
}

/// Conversions on long lines (a minified document) agree with counting from the line's start, in
/// every encoding, far past one stride and across characters the strides cut.
struct LongLineTests {
  @Test(arguments: PositionEncoding.allCases)
  func agreesWithCountingFromTheLineStart(encoding: PositionEncoding) {
    let pieces = ["a", "é", "€", "😀", "\"", " "]
    var text = "{\n"
    for index in 0..<3000 { text += pieces[(index * 7 + index / 5) % pieces.count] }
    text += "\r\nz"
    let document = TextDocument(uri: "u", version: 1, text: text)
    let bytes = Array(text.utf8)
    var units = 0
    var at = 2
    while at < bytes.count - 3 {
      #expect(document.position(ofOffset: at, encoding: encoding) == (1, units), "offset \(at)")
      #expect(document.offset(line: 1, character: units, encoding: encoding) == at, "character \(units)")
      units += encoding.units(lead: bytes[at])
      at += PositionEncoding.utf8.units(lead: bytes[at])
    }
    #expect(document.offset(line: 1, character: units + 5, encoding: encoding) == bytes.count - 3)
  }
}
