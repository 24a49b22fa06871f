import Testing

@testable import InboxLSP

/// The obvious fixes, and none where the fix is not obvious.
struct QuickFixTests {
  func fix(_ code: String, _ value: String) -> QuickFix.Fix? {
    QuickFix.fix(code: code, at: 0, in: Array(value.utf8))
  }

  @Test func nearestKindAndAction() {
    #expect(fix("unknownDisplayType", "\"Captiond\"")?.newText == "captioned")
    #expect(fix("unknownDisplayType", "\"zzzzzzzz\"") == nil)
    #expect(fix("unknownButtonAction", "\"mark_read\"")?.newText == "markRead")
    #expect(fix("unknownDisplayType", "42") == nil)
  }

  @Test func schemeAddedInFrontOfTheURL() {
    #expect(
      fix("invalidButtonURL", "\"example.com/x\"")
        == .init(title: "Add https:// to the button's url", start: 1, end: 1, newText: "https://"))
    #expect(fix("invalidButtonURL", "\"mailto:x\"") == nil)
    #expect(fix("degraded", "\"x\"") == nil)
  }

  @Test func recognisedByContent() {
    #expect(PayloadKind.recognises(Array("{\"request\": {\"notifications\": []}}".utf8)))
    #expect(PayloadKind.recognises(Array("[{\"inbox_image\": \"x\"}]".utf8)))
    #expect(!PayloadKind.recognises(Array("{\"name\": \"pkg\", \"version\": \"1\"}".utf8)))
    #expect(PayloadKind.recognises(Array("{\"request\": ".utf8)))
  }
}
