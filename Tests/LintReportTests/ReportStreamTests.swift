import JSON
import Testing

@testable import LintReport

/// A report written subject by subject says what the whole report rendered at once says: the same
/// text, commands and JUnit XML, and the same subjects, results and verdicts in JSON and SARIF.
struct ReportStreamTests {
  /// `ReportFormatTests.report` with a second file, so JUnit has two suites.
  static let report: Report = {
    var report = ReportFormatTests.report
    report.subjects.append(
      Report.Subject(
        file: "c.json", name: "[0]",
        findings: [
          Finding(
            file: "c.json", position: SourcePosition(line: 1, column: 1), ruleId: "schema", severity: .error,
            message: "é and 漢字 across a spool's chunk")
        ]))
    return report
  }()

  static func streamed(_ format: ReportFormat, failOn: FailOn = .warning) -> (output: String, fails: Bool) {
    var output = ""
    let stream = ReportStream(format: format, failOn: failOn, tool: report.tool, rules: report.rules) {
      output += $0
    }
    for subject in report.subjects { stream.add(subject) }
    stream.finish()
    return (output, stream.fails)
  }

  @Test(arguments: [ReportFormat.text, .github, .junit])
  func linesAndXMLAreThoseOfTheWholeReport(_ format: ReportFormat) {
    for failOn in [FailOn.warning, .error, .never] {
      let streamed = Self.streamed(format, failOn: failOn)
      #expect(streamed.output == format.render(Self.report, failOn: failOn))
      #expect(streamed.fails == failOn.fails(Self.report.findings))
    }
  }

  @Test func jsonHasTheSubjectsAndTheRulesCited() throws {
    let whole = try JSONValue.parse(ReportFormat.json.render(Self.report))
    let streamed = try JSONValue.parse(Self.streamed(.json).output)
    #expect(streamed["subjects"] == whole["subjects"])
    #expect(streamed["tool"] == whole["tool"])
    #expect(streamed["rules"] == whole["rules"])
  }

  @Test func sarifHasTheResultsEachCitingItsRule() throws {
    let whole = try JSONValue.parse(ReportFormat.sarif.render(Self.report))["runs"]?.arrayValue?.first
    let streamed = try JSONValue.parse(Self.streamed(.sarif).output)["runs"]?.arrayValue?.first
    #expect(streamed?["results"] == whole?["results"])
    #expect(streamed?["properties"] == whole?["properties"])
    #expect(streamed?["tool"]?["driver"]?["rules"] == whole?["tool"]?["driver"]?["rules"])
  }

  @Test(arguments: ReportFormat.allCases)
  func anEmptyReportIsStillADocument(_ format: ReportFormat) throws {
    var output = ""
    let stream = ReportStream(format: format, failOn: .warning, tool: Self.report.tool, rules: []) { output += $0 }
    stream.finish()
    switch format {
    case .json, .sarif: _ = try JSONValue.parse(output)
    case .junit: #expect(output.contains("<testsuites name=\"checker\" tests=\"0\" failures=\"0\">"))
    case .text, .github: #expect(output == "")
    }
    #expect(!stream.fails)
  }
}
