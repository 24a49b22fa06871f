import JSON
import LintReport
import Testing

@testable import InboxLint

/// A payload file read as `lint` reads it: JSON with the place of a syntax error, and the rules every
/// finding cites.
struct LintInputTests {
  @Test func aFileThatIsJSONIsItsValue() throws {
    let input = LintInput.parse("a.json", Array(#"{"title": "Hi"}"#.utf8))
    #expect(try input.value.get() == ["title": "Hi"])
    #expect(input.file == "a.json")
  }

  @Test func aSyntaxErrorIsAFindingAtItsLineAndColumn() {
    let input = LintInput.parse("b.json", Array("{\n  \"title\": \"Hi\",\n  oops\n}".utf8))
    guard case .failure(let problem) = input.value else {
      Issue.record("a file that is not JSON was read")
      return
    }
    #expect(problem.finding.ruleId == "notJSON")
    #expect(problem.finding.position.line == 3)
    #expect(problem.finding.file == "b.json")
  }

  @Test func aByteOrderMarkDoesNotMoveTheError() {
    let input = LintInput.parse("c.json", [0xEF, 0xBB, 0xBF] + Array("{\n oops}".utf8))
    guard case .failure(let problem) = input.value else {
      Issue.record("a file that is not JSON was read")
      return
    }
    #expect(problem.finding.position.line == 2)
  }

  @Test func everyFindingsRuleIsInTheCatalogue() {
    let unknown = Finding(
      file: "a.json", position: SourcePosition(line: 1, column: 1), ruleId: "someNewWarning", severity: .warning,
      message: "new")
    let catalogue = LintRules.catalogue(citedBy: [unknown])
    #expect(catalogue.contains { $0.id == "someNewWarning" && $0.severity == .warning })
    #expect(catalogue.contains { $0.id == "notJSON" })
  }
}
