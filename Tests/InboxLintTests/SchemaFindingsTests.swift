import JSON
import LintReport
import Testing

@testable import InboxLint

/// Every break of the input schema of a payload is a finding of its own, in words, over its value.
struct SchemaFindingsTests {
  static let payload = """
    {
      "inbox_days": 7,
      "content": "Sale",
      "data": {
        "displayType": "bannr",
        "buttons": [{"title": 5}, {"title": "Go", "action": "dismis"}]
      }
    }
    """

  @Test func threeViolationsAreThreeFindingsEachOverItsValue() throws {
    let (_, linted) = try LintedFileTests.lint(Self.payload, format: .sarif)
    let schema = linted.subjects.flatMap(\.findings).filter { $0.ruleId == "schema" }
    #expect(
      schema.map(\.message) == [
        #"payload.data.displayType: must be one of banner, captioned, classic, carousel, video or wallet (any case), got "bannr""#,
        "payload.data.buttons[0].title: expected string, got integer",
        #"payload.data.buttons[1].action: must be one of dismiss, markRead or custom (any case), got "dismis""#,
      ])
    let ranges = schema.map { [$0.position.line, $0.position.column, $0.end?.line ?? 0, $0.end?.column ?? 0] }
    #expect(ranges == [[5, 20, 5, 27], [6, 27, 6, 28], [6, 57, 6, 65]])
    #expect(
      schema.map(\.schemaPath) == [
        "#/components/schemas/MarketerData/properties/displayType/pattern",
        "#/components/schemas/MarketerData/properties/buttons/items/properties/title/type",
        "#/components/schemas/MarketerData/properties/buttons/items/properties/action/pattern",
      ])
  }

  @Test func theJSONFormatCarriesEachFindingsRangeAndSchemaPath() throws {
    let (_, linted) = try LintedFileTests.lint(Self.payload, format: .json)
    let report = try JSONValue.parse(linted.output)
    let first = try #require(report["findings"]?.arrayValue?.first { $0["ruleId"] == "schema" })
    #expect(first["endLine"] == 5 && first["endColumn"] == 27)
    #expect(first["schemaPath"] == "#/components/schemas/MarketerData/properties/displayType/pattern")
  }
}
