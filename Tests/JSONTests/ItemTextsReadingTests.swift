import JSON
import Testing

/// A reply's list is returned with each item's compact text; a long one is read in two halves side
/// by side, and gives exactly what reading it alone gives.
struct ItemTextsReadingTests {
  /// `{"response": {"messages": [...], "next": "x"}}` with `count` varied items.
  func reply(_ count: Int, deepAt deep: Int? = nil) -> String {
    let items = (0..<count).map { index -> String in
      if index == deep { return String(repeating: "[", count: 80) + String(repeating: "]", count: 80) }
      return #"{"inbox_id":"m\#(index)","n":\#(index),"f":\#(Double(index) / 8),"t":"a\"b\u00e9\n","l":[true,null,{}]}"#
    }
    return #"{"status_code":200,"response":{"messages":[\#(items.joined(separator: ","))],"next":"x"}}"#
  }

  @Test(arguments: [0, 1, 511, 512, 513, 3001])
  func textsAndValuesMatchReadingAlone(count: Int) throws {
    let text = reply(count)
    let (value, texts) = try JSONValue.parse(bytes: Array(text.utf8), itemTextsAt: ["response", "messages"])
    #expect(value == (try JSONValue.parse(text)))
    let items = value["response"]?["messages"]?.arrayValue ?? []
    #expect(items.count == count)
    #expect(texts == items.map(\.jsonString))
  }

  @Test func tooDeepAnItemInEitherHalfFailsTheWhole() throws {
    for deep in [3, 2_000] {
      #expect(throws: JSONError.self) {
        _ = try JSONValue.parse(
          bytes: Array(reply(2_001, deepAt: deep).utf8), options: JSONReadOptions(maxDepth: 64),
          itemTextsAt: ["response", "messages"])
      }
    }
  }

  @Test func noArrayAtThePathGivesNoTexts() throws {
    for text in [#"{"response":{"messages":{}}}"#, #"{"response":[[1,2]]}"#, #"{"response":"messages"}"#, "[1]"] {
      let (value, texts) = try JSONValue.parse(bytes: Array(text.utf8), itemTextsAt: ["response", "messages"])
      #expect(value == (try JSONValue.parse(text)))
      #expect(texts == nil)
    }
  }
}
