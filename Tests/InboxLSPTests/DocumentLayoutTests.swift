import JSON
import LintReport
import Testing

@testable import InboxLSP

/// Formatting, folding and the outline read the text alone: what they make of small documents.
struct DocumentLayoutTests {
  func format(_ text: String, indent: String = "  ", range: Range<Int>? = nil) -> String? {
    let bytes = Array(text.utf8)
    let span = range.map { JSONFormatter.span(holding: $0, in: bytes) } ?? JSONFormatter.documentSpan(bytes)
    return JSONFormatter.formatted(bytes, span: span, indent: indent).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func reindentsKeepingOrderAndEveryByteOfStringsAndNumbers() {
    let text = #"{"z":1.0,"a":["x\u00e9\"y",{"b" :{}},[]],"s":"  a: {b}, [c]  ","n":-0e1}"#
    #expect(
      format(text) == """
        {
          "z": 1.0,
          "a": [
            "x\\u00e9\\"y",
            {
              "b": {}
            },
            []
          ],
          "s": "  a: {b}, [c]  ",
          "n": -0e1
        }
        """)
    #expect(format("{\"a\": [1]}", indent: "\t") == "{\n\t\"a\": [\n\t\t1\n\t]\n}")
  }

  @Test func formattedTextAndBrokenTextAreLeftAlone() {
    #expect(format("{\n  \"a\": 1\n}") == nil)
    #expect(format("{\"a\": ") == nil)
    #expect(format("") == nil)
  }

  @Test func aRangeFormatsTheInnermostContainerHoldingItAtItsLinesIndentation() {
    let text = "{\n  \"a\": {\"b\":   [1,2]},\n  \"c\":3\n}\n"
    let inner = text.utf8.count - text.drop(while: { $0 != "[" }).utf8.count
    let formatted = format(text, range: inner..<(inner + 2))
    #expect(formatted == "[\n    1,\n    2\n  ]")
    #expect(JSONFormatter.span(holding: 0..<text.utf8.count, in: Array(text.utf8)) == 0..<(text.utf8.count - 1))
  }

  @Test func foldsContainersOverMoreThanTwoLinesOutermostFirst() {
    let text = "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\"c\": 1}\n}\n"
    let ranges = FoldingRanges.json(TextDocument(uri: "file:///x", version: 1, text: text), limit: nil)
    #expect(ranges == [["startLine": 0, "endLine": 5], ["startLine": 1, "endLine": 3]])
    let limited = FoldingRanges.json(TextDocument(uri: "file:///x", version: 1, text: text), limit: 1)
    #expect(limited.arrayValue?.count == 1)
  }

  @Test func theOutlineNamesNotificationsButtonsAndSlidesByTitle() throws {
    let request: JSONValue = try JSONValue.parse(
      #"""
      {"request": {"application": "A-1", "notifications": [
        {"title": {"en": "Sale"}, "content": "c", "data": {"displayType": "carousel",
          "buttons": [{"title": "Go", "action": "dismiss"}, {"url": "https://x"}],
          "carousel": [{"image": "https://x/1.png", "title": "One"}]}},
        {"content": "Just text"}]}}
      """#)
    let symbols = DocumentOutline.symbols(request)
    #expect(symbols.map(\.name) == ["request"])
    let notifications = symbols[0].children
    #expect(notifications.map(\.name) == ["Sale", "Just text"])
    #expect(notifications[0].detail == "carousel")
    #expect(notifications[0].children.map(\.name) == ["Go", "button 1", "One"])
    #expect(
      notifications[0].children[1].pointer == JSONPointer(["request", "notifications", "0", "data", "buttons", "1"]))
  }

  @Test func theOutlineIsATreeOrAFlatListAsTheClientTakesIt() throws {
    let text = "[{\"title\": \"T\", \"data\": {\"buttons\": [{\"title\": \"B\"}]}}]"
    let document = TextDocument(uri: "file:///n.json", version: 1, text: text)
    let symbols = DocumentOutline.symbols(try JSONValue.parse(text))
    let tree = try #require(DocumentOutline.json(symbols, in: document, encoding: .utf16, tree: true).arrayValue)
    #expect(tree[0]["name"] == "T")
    #expect(tree[0]["selectionRange"]?["start"]?["character"] == 11)
    #expect(tree[0]["children"]?.arrayValue?.first?["name"] == "B")
    let flat = try #require(DocumentOutline.json(symbols, in: document, encoding: .utf16, tree: false).arrayValue)
    #expect(flat.compactMap { $0["name"]?.stringValue } == ["T", "B"])
    #expect(flat[1]["containerName"] == "T")
    #expect(flat[1]["location"]?["uri"] == "file:///n.json")
  }
}
