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

/// Formatting random documents: the value is the same after, and formatting again changes nothing.
struct FormattingPropertyTests {
  /// A small deterministic generator (SplitMix64), so a failure names the seed that makes it again.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  /// JSON text of a random value, with random whitespace between its tokens.
  static func text(_ random: inout Random, depth: Int = 0) -> String {
    let space = ["", " ", "\n", "\t ", "\r\n  "]
    func gap(_ random: inout Random) -> String { space[random.next(space.count)] }
    let atoms = ["0", "-1.50", "1e3", "true", "null", #""a: {b}, [c]""#, #""\u00e9\"\\""#, #""""#, #"" x ""#]
    switch depth > 3 ? 0 : random.next(4) {
    case 1:
      let count = random.next(4)
      let members = (0..<count).map { index in
        "\(gap(&random))\"k\(index)\"\(gap(&random)):\(gap(&random))\(text(&random, depth: depth + 1))\(gap(&random))"
      }
      return "{" + members.joined(separator: ",") + "}"
    case 2:
      let count = random.next(4)
      let items = (0..<count).map { _ in gap(&random) + text(&random, depth: depth + 1) + gap(&random) }
      return "[" + items.joined(separator: ",") + "]"
    default: return atoms[random.next(atoms.count)]
    }
  }

  @Test func theValueIsKeptAndFormattingIsIdempotent() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = Random(state: seed)
    for _ in 0..<300 {
      let text = "{\"top\": " + Self.text(&random) + "}"
      let bytes = Array(text.utf8)
      let span = JSONFormatter.documentSpan(bytes)
      guard let once = JSONFormatter.formatted(bytes, span: span, indent: "  ") else { continue }
      let reparsed = try JSONValue.parse(bytes: once)
      #expect(reparsed == (try JSONValue.parse(text)), "seed \(seed): \(text)")
      #expect(JSONFormatter.formatted(once, span: 0..<once.count, indent: "  ") == nil, "seed \(seed): \(text)")
    }
  }
}
