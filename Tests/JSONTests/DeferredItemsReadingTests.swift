import JSON
import Testing

/// A reply's list is left as spans of its text and read one item at a time: the tree of the whole
/// text is never built, and each item, its text and the rest of the value are what reading the
/// whole text gives; the text is still checked whole.
struct DeferredItemsReadingTests {
  /// `{"response": {"messages": [...], "next": "x"}}` with `count` varied items.
  func reply(_ count: Int, deepAt deep: Int? = nil) -> String {
    let items = (0..<count).map { index -> String in
      if index == deep { return String(repeating: "[", count: 80) + String(repeating: "]", count: 80) }
      return #"{"inbox_id":"m\#(index)","n":\#(index),"f":\#(Double(index) / 8),"t":"a\"b\u00e9\n","l":[true,null,{}]}"#
    }
    return #"{"status_code":200,"response":{"messages":[\#(items.joined(separator: ","))],"next":"x"}}"#
  }

  func parse(_ text: String, maxDepth: Int = 64) throws -> (JSONValue, JSONItems?) {
    try JSONValue.parse(
      bytes: Array(text.utf8), options: JSONReadOptions(maxDepth: maxDepth), deferringItemsAt: ["response", "messages"])
  }

  /// `text` read with its list, every item read too: where an item that is not JSON is refused.
  func parseAll(_ bytes: [UInt8]) throws -> [JSONValue]? {
    try JSONValue.parse(bytes: bytes, deferringItemsAt: ["response", "messages"]).items?.values()
  }

  /// The whole value of `text` without `response.messages`.
  func withoutList(_ text: String) throws -> JSONValue {
    var whole = try JSONValue.parse(text)
    guard case .object(var top) = whole, case .object(var response)? = top["response"] else { return whole }
    response["messages"] = nil
    top["response"] = .object(response)
    whole = .object(top)
    return whole
  }

  @Test(arguments: [0, 1, 3001])
  func itemsAndTextsMatchReadingTheWhole(count: Int) throws {
    let text = reply(count)
    let expected = try JSONValue.parse(text)["response"]?["messages"]?.arrayValue ?? []
    let (value, deferred) = try parse(text)
    let items = try #require(deferred)
    #expect(items.count == count)
    #expect(try items.values() == expected)
    #expect(try (0..<count).map { try items.item(at: $0).text().text } == expected.map(\.jsonString))
    #expect(value == (try withoutList(text)))
  }

  /// White space anywhere between values, members before and after the list, escapes in keys.
  @Test func punctuationAndKeysAreReadAsJanssonReadsThem() throws {
    let text =
      " {\n\"status_code\" : 200 ,\"resp\\u006fnse\":{ \"a\":[1,{\"b\":2}], \"messages\" : [ {\"inbox_id\":\"x\"} ,\n 7 , \"s\" , [ ] ] ,\"z\":null } } \n"
    let (value, deferred) = try parse(text)
    let items = try #require(deferred)
    #expect(try items.values() == [["inbox_id": "x"], 7, "s", []])
    #expect(value == (try withoutList(text)))
  }

  @Test(arguments: [
    #"{"response":{"messages":[1,2,}}"#, #"{"response":{"messages":[1 2]}}"#, #"{"response":{"messages":[1,2]}"#,
    #"{"response":{"messages":[1]}} x"#, #"{"response":{"messages":[1],"messages":[2]}}"#,
    #"{"response":{"messages":[{"a":1,"a":2}]}}"#, #"{"response" {"messages":[]}}"#,
    #"{"response":{"messages":[]},}"#, #"{"re\u0000":1,"response":{"messages":[]}}"#,
  ])
  func aTextTheWholeReaderRefusesIsRefused(text: String) {
    #expect(throws: JSONError.self) { try JSONValue.parse(text) }
    #expect(throws: JSONError.self) { try parseAll(Array(text.utf8)) }
  }

  /// Items are found by their brackets and strings, and each is parsed, strictly and whole, when read.
  @Test(arguments: [
    #"{"response":{"messages":[{"a":1,}]}}"#, #"{"response":{"messages":[1x]}}"#, #"{"response":{"messages":[{]}]}}"#,
    #"{"response":{"messages":[tru"e"]}}"#, #"{"response":{"messages":[{"a":1}}]}}"#,
  ])
  func anItemThatIsNotJSONIsRefusedWhenRead(text: String) throws {
    #expect(throws: JSONError.self) { try JSONValue.parse(text) }
    #expect(throws: JSONError.self) { try parseAll(Array(text.utf8)) }
  }

  @Test func invalidUTF8InAnItemIsRefused() {
    let bytes = Array(#"{"response":{"messages":[""#.utf8) + [0xFF] + Array(#""]}}"#.utf8)
    #expect { _ = try parseAll(bytes) } throws: { ($0 as? JSONError)?.kind == .invalidUTF8 }
  }

  /// jansson lets a raw NUL pass after a number (and counts it in no length): refused anywhere.
  @Test func aRawNULIsRefused() {
    for text in [#"{"response":{"messages":[1\#u{0},2]}}"#, #"{"a":1\#u{0},"response":{"messages":[]}}"#] {
      #expect { _ = try parse(text) } throws: { ($0 as? JSONError)?.kind == .syntax }
    }
  }

  @Test func aTextPastTheLimitIsMeasuredNotWritten() throws {
    let (_, items) = try parse(reply(2))
    let item = try #require(try items?.item(at: 1))
    let full = item.text()
    let size = try #require(full.text?.utf8.count)
    #expect(full.size == size)
    #expect(item.text(upTo: size).text == full.text)
    let cut = item.text(upTo: size - 1)
    #expect(cut.text == nil && cut.size == size)
  }

  @Test func anItemTooDeepFailsAloneAndStillNamesItself() throws {
    let (_, deferred) = try parse(reply(3, deepAt: 1))
    let items = try #require(deferred)
    #expect(throws: JSONError.self) { try items.item(at: 1).value() }
    #expect(try items.item(at: 2).value()["inbox_id"] == "m2")
    #expect(try items.item(at: 0).member("inbox_id") == "m0")
    #expect(try items.item(at: 1).member("inbox_id") == nil)
  }

  /// A text that is itself an array (a file of payloads) has its items deferred by the empty path,
  /// read as the whole reader reads them, its depth counted from the array.
  @Test(arguments: ["[]", " [ 1 ,{\"a\":[2]}, \"s\" ]\n", "[[[1]]]"])
  func aTopLevelArrayIsDeferredByTheEmptyPath(text: String) throws {
    let (value, deferred) = try JSONValue.parse(bytes: Array(text.utf8), deferringItemsAt: [])
    #expect(value == [])
    #expect(try deferred?.values() == (try JSONValue.parse(text)).arrayValue)
    let limit = JSONReadOptions(maxDepth: 2)
    let (_, shallow) = try JSONValue.parse(bytes: Array(text.utf8), options: limit, deferringItemsAt: [])
    #expect(
      (try? JSONValue.parse(bytes: Array(text.utf8), options: limit)) == (try? shallow?.values()).map(JSONValue.array))
  }

  @Test(arguments: ["[1,]", "[1 2]", "[1] x", "[1", "[{\"a\":1,\"a\":2}]"])
  func aTopLevelArrayTheWholeReaderRefusesIsRefused(text: String) {
    #expect(throws: JSONError.self) { try JSONValue.parse(text) }
    #expect(throws: JSONError.self) {
      try JSONValue.parse(bytes: Array(text.utf8), deferringItemsAt: []).items?.values()
    }
  }

  @Test func noArrayAtThePathGivesTheWholeValue() throws {
    for text in [
      #"{"response":{"messages":{}}}"#, #"{"response":[[1,2]]}"#, #"{"response":"messages"}"#, "[1]", "5", "{}",
    ] {
      let (value, items) = try parse(text)
      #expect(value == (try JSONValue.parse(text)))
      #expect(items == nil)
    }
  }
}
