import JSON
import LintReport
import Testing

@testable import InboxLSP

/// Completion edits, a field's description and findings shared by platforms, as a client receives them.
struct EditorAnswersTests {
  func item(_ label: String, key: Bool = true, type: String? = "string", choices: [String] = [])
    -> SchemaCompletion.Item
  {
    SchemaCompletion.Item(label: label, detail: type, documentation: "what it is", isKey: key, choices: choices)
  }

  /// The item's JSON for a completion at `|` in `text` (the bar taken out).
  func edit(_ text: String, _ item: SchemaCompletion.Item, features: ClientFeatures = ClientFeatures()) -> JSONValue? {
    let bar = text.firstRange(of: "|")!
    let cursor = text.utf8.distance(from: text.startIndex, to: bar.lowerBound)
    var typed = text
    typed.replaceSubrange(bar, with: "")
    let document = TextDocument(uri: "file:///x", version: 1, text: typed)
    return CompletionEdits(features: features).json([item], at: cursor, in: document, encoding: .utf16).first
  }

  @Test func aNameInsertsItsColonAndInAStringStartsAfterTheQuote() {
    let typed = edit("{\"data\": {\"disp|\n}}", item("displayType"))
    #expect(typed?["textEdit"]?["newText"] == "displayType\": ")
    #expect(typed?["textEdit"]?["range"]?["start"]?["character"] == 11)
    #expect(typed?["insertTextFormat"] == 1)
    #expect(typed?["documentation"] == "what it is")  // a client listing no format gets a string
    let bare = edit("{\"data\": {disp|}}", item("displayType"))
    #expect(bare?["textEdit"]?["newText"] == "\"displayType\": ")
    let named = edit("{\"data\": {\"disp|\": 1}}", item("displayType"))
    #expect(named?["textEdit"]?["newText"] == "displayType\"")
    let value = edit("{\"displayType\": \"|\"}", item("video", key: false))
    #expect(value?["textEdit"]?["newText"] == "video\"")
  }

  @Test func snippetsGiveTheValueAPlaceholderAndEnumsAChoice() {
    var features = ClientFeatures()
    features.snippets = true
    features.documentationFormats = ["markdown", "plaintext"]
    let kinds = edit("{\"|", item("displayType", choices: ["banner", "a,b|c"]), features: features)
    #expect(kinds?["textEdit"]?["newText"] == "displayType\": \"${1|banner,a\\,b\\|c|}\"")
    #expect(kinds?["insertTextFormat"] == 2)
    #expect(kinds?["documentation"] == ["kind": "markdown", "value": "what it is"])
    #expect(edit("{\"|", item("data", type: "object"), features: features)?["textEdit"]?["newText"] == "data\": {$1}")
    #expect(edit("{\"|", item("title"), features: features)?["textEdit"]?["newText"] == "title\": \"$1\"")
  }

  @Test func aFieldNameHoversWithItsSchemaDescription() {
    let text = "{\"inbox_image\": \"https://x/y.png\", \"data\": {\"displayType\": \"video\"}}"
    let bytes = Array(text.utf8)
    let at = text.utf8.distance(from: text.startIndex, to: text.firstRange(of: "displayType")!.lowerBound)
    let field = FieldDescription.at(at + 3, in: bytes, schemas: SchemaCompletion())
    #expect(field?.text.contains("card kind") == true)
    #expect(FieldDescription.at(text.utf8.count - 4, in: bytes, schemas: SchemaCompletion()) == nil)  // a value
  }

  @Test func findingsSharedByPlatformsAreOneSayingWhich() {
    func finding(_ message: String, column: Int = 3, rule: String = "unknownButtonAction") -> Finding {
      Finding(
        file: "f", position: SourcePosition(line: 1, column: column), ruleId: rule, severity: .warning, message: message
      )
    }
    let merged = SharedFindings.merged([
      finding("schema break", rule: "schema"), finding("on ios: button 0 action \"x\" is not…"),
      finding("schema break", rule: "schema"), finding("on android: button 0 action \"x\" is not…"),
      finding("on android: only here", column: 9), finding("alone", column: 12, rule: "schema"),
    ])
    // The break at the warning's value is said in it, as severe as the break; one elsewhere stands.
    #expect(
      merged.map(\.message) == [
        "on ios and android: button 0 action \"x\" is not…; schema break", "on android: only here", "alone",
      ])
    #expect(merged.map(\.ruleId) == ["unknownButtonAction", "unknownButtonAction", "schema"])
    #expect(SharedFindings.listed(["ios", "android", "huawei"]) == "ios, android and huawei")
    #expect(SharedFindings.split("on the way: x").platform == nil)
  }
}
