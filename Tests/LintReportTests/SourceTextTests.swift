import JSON
import LintReport
import Testing

/// The locator against texts laid out every way a payload file is: each row names a pointer and
/// the line and column (UTF-16, 1-based) its value starts at.
struct SourceTextTests {
  private func position(_ text: String, _ pointer: String, bom: Bool = false) -> SourcePosition {
    let bytes = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    return SourceText(bytes).position(of: JSONPointer(parsing: pointer) ?? JSONPointer())
  }

  @Test func minified() {
    let text = #"{"a":[1,{"b":"x"}],"c":true}"#
    #expect(position(text, "/a/1/b") == SourcePosition(line: 1, column: 14))
    #expect(position(text, "/c") == SourcePosition(line: 1, column: 24))
    #expect(position(text, "") == SourcePosition(line: 1, column: 1))
  }

  @Test func prettyWithCRLF() {
    let text = "{\r\n  \"a\": [\r\n    1,\r\n    {\"b\": \"x\"}\r\n  ]\r\n}\r\n"
    #expect(position(text, "/a") == SourcePosition(line: 2, column: 8))
    #expect(position(text, "/a/1/b") == SourcePosition(line: 4, column: 11))
  }

  @Test func loneCarriageReturnsEndLines() {
    #expect(position("{\r\"a\":\r1}", "/a") == SourcePosition(line: 3, column: 1))
  }

  @Test func byteOrderMarkIsNotAColumn() {
    #expect(position(#"{"a": 1}"#, "/a", bom: true) == SourcePosition(line: 1, column: 7))
  }

  @Test func nonASCIIBeforeTheValue() {
    // "é" is one UTF-16 unit and one scalar; "😀" is two units and one scalar.
    let found = position(#"{"é😀": "x", "k": 1}"#, "/k")
    #expect(found.line == 1 && found.column == 19 && found.codePointColumn == 18)
  }

  @Test func keysWithEscapesAndPointerEscapes() {
    let text = #"{"a/b": {"x\"y": 1, "t~": [true]}}"#
    #expect(position(text, "/a~1b/x\"y") == SourcePosition(line: 1, column: 18))
    #expect(position(text, "/a~1b/t~0/0") == SourcePosition(line: 1, column: 28))
    #expect(position(#"{"\u00e9": 2}"#, "/é") == SourcePosition(line: 1, column: 12))
  }

  @Test func pastTheTextStopsAtTheDeepestValue() {
    let text = #"{"u": "{\"a\": 1}", "n": [0]}"#
    #expect(position(text, "/u/a") == position(text, "/u"))
    #expect(position(text, "/n/5") == position(text, "/n"))
    #expect(position(text, "/n/00") == position(text, "/n"))
  }

  @Test func skipsNestedValuesAndStringsWithBrackets() {
    let text = #"[{"s": "]}[{", "t": [[{}]]}, 7]"#
    #expect(position(text, "/1") == SourcePosition(line: 1, column: 30))
  }

  @Test func aValueInsideAJSONLinesFile() {
    let bytes = Array("{\"a\": 1}\n{\"b\": [true, \"x\"]}\n".utf8)
    let second = (bytes.firstIndex(of: 0x0A) ?? 0) + 1
    let found = SourceText(bytes).position(of: JSONPointer(["b", "1"]), inValueAt: second)
    #expect(found == SourcePosition(line: 2, column: 14))
  }

  @Test func pointersParseAndPrint() {
    #expect(JSONPointer(parsing: "/a//b")?.tokens == ["a", "", "b"])
    #expect(JSONPointer(parsing: "/~01")?.tokens == ["~1"])
    #expect(JSONPointer(["a/b", "~"]).description == "/a~1b/~0")
    #expect(JSONPointer(parsing: "a") == nil)
  }
}

/// Positions from the line index agree with counting from the file's start, on random texts of
/// every line ending and of one-, two-, three- and four-byte characters, far past one stride.
struct LineIndexTests {
  @Test func agreesWithCountingFromTheStart() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SplitMix(seed: seed)
    let pieces = ["a", "é", "€", "😀", "\n", "\r\n", "\r", " ", "{", "\""].map { Array($0.utf8) }
    // Every fourth text without line breaks: one long line, counted from the strides' counts.
    let inLongLines = pieces.filter { !$0.contains(0x0A) && !$0.contains(0x0D) }
    for round in 0..<20 {
      var bytes: [UInt8] = round % 2 == 0 ? [0xEF, 0xBB, 0xBF] : []
      let drawn = round % 4 == 3 ? inLongLines : pieces
      for _ in 0..<Int(generator.next() % 3000) { bytes += drawn[Int(generator.next() % UInt64(drawn.count))] }
      let text = SourceText(bytes)
      for offset in stride(from: 0, through: bytes.count, by: 7) {
        #expect(
          text.position(atOffset: offset) == SourcePosition(offset: offset, in: bytes),
          "seed \(seed), round \(round), offset \(offset)")
      }
    }
  }

  @Test func elementOffsetsFindEachItemOnce() {
    let bytes = Array(#"{"a": [ 1, {"b": [2, 3]}, "x,]" , [] ]}"#.utf8)
    let offsets = SourceText(bytes).elementOffsets(of: JSONPointer(["a"]))
    #expect(offsets.map { bytes[$0] } == [UInt8(ascii: "1"), UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "[")])
    #expect(SourceText(bytes).elementOffsets(of: JSONPointer(["a", "0"])).isEmpty)
  }
}

/// SplitMix64: a seeded generator, so a failing round can be replayed from its printed seed.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One index answers many pointers into the same objects and arrays, in any order, as a walk from
/// the start finds them: each key's value, the first of a duplicated name, escaped names, elements.
struct ValueIndexTests {
  @Test func manyPointersThroughTheSameContainers() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SplitMix(seed: seed)
    var text = "{\"list\": ["
    var expected: [(JSONPointer, Int)] = []
    for index in 0..<500 {
      if index > 0 { text += index % 3 == 0 ? ",\r\n " : "," }
      expected.append((JSONPointer(["list", String(index)]), text.utf8.count))
      text += "{\"k\": [\"]\", {}], \"n\": \(index)}"
    }
    text += "], \"keys\": {"
    for index in 0..<500 {
      let key = index % 7 == 0 ? "q\\\"\(index)" : "k\(index)"
      text += "\"\(key)\": "
      expected.append((JSONPointer(["keys", index % 7 == 0 ? "q\"\(index)" : "k\(index)"]), text.utf8.count))
      text += "\"é😀\(index)\", "
    }
    text += "\"k1\": \"a duplicate: the first is the one\"}}"
    let bytes = Array(text.utf8)
    let index = ValueIndex(SourceText(bytes))
    for round in 0..<3 * expected.count {
      let (pointer, offset) = expected[Int(generator.next() % UInt64(expected.count))]
      #expect(index.offset(of: pointer) == offset, "seed \(seed), \(pointer)")
      // A pointer asked alone walks the same way.
      if round % 50 == 0 { #expect(SourceText(bytes).offset(of: pointer) == offset, "seed \(seed), \(pointer)") }
    }
    #expect(index.elements(ofArrayAt: index.offset(of: JSONPointer(["list"]))).count == 500)
  }
}
