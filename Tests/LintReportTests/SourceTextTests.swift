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
