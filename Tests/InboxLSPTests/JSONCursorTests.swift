import LintReport
import Testing

@testable import InboxLSP

/// Where a value ends and where a cursor is, in text that may be half typed.
struct JSONCursorTests {
  @Test(arguments: [
    ("{\"a\": \"x\\\"y\", \"b\": 1}", 6, 12), ("[1, [2, {\"]\": 3}]]", 4, 17), ("{\"a\": 12.5e3}", 6, 12),
    ("{\"a\": tru", 6, 9), ("{\"a\": {\"b\": [", 6, 13),
  ])
  func valueEnds(text: String, start: Int, end: Int) {
    #expect(JSONScanner.valueEnd(Array(text.utf8), at: start) == end)
  }

  @Test func placeAtAKeyOrAValue() {
    let text = Array("{\"data\": {\"buttons\": [{\"action\": \"\", ".utf8)
    let value = text.count - 4  // inside the action's empty string
    #expect(JSONCursor.place(text, at: value) == .init(pointer: ["data", "buttons", "0", "action"], atKey: false))
    #expect(JSONCursor.place(text, at: text.count) == .init(pointer: ["data", "buttons", "0"], atKey: true))
    #expect(JSONCursor.place(Array("[{}, {".utf8), at: 6) == .init(pointer: ["1"], atKey: true))
  }

  @Test func casedPatternWordsAreSpelledAsTheDescriptionDoes() {
    let words = SchemaCompletion.words(
      ofCaseless: "^([Dd][Ii][Ss][Mm][Ii][Ss][Ss]|[Mm][Aa][Rr][Kk][Rr][Ee][Aa][Dd])$",
      spelledAs: "An explicit action: dismiss or markRead.")
    #expect(words == ["dismiss", "markRead"])
    #expect(SchemaCompletion.words(ofCaseless: "^https?://", spelledAs: "").isEmpty)
  }
}
