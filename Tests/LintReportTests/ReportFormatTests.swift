import JSON
import Testing

@testable import LintReport

/// What each format makes of one report with an error, a warning and a clean subject.
struct ReportFormatTests {
  static let report = Report(
    tool: Report.Tool(name: "checker", version: "1.0"),
    rules: [
      Rule(id: "schema", summary: "breaks the schema", severity: .error),
      Rule(id: "degraded", summary: "falls back to classic", severity: .warning),
    ],
    subjects: [
      Report.Subject(
        file: "a b.json", name: "[0]", summary: "classic card",
        findings: [
          Finding(
            file: "a b.json", position: SourcePosition(line: 3, column: 7), pointer: JSONPointer(["0", "t"]),
            ruleId: "schema", severity: .error, message: "50%\r\nbad: <x> & \u{1}"),
          Finding(
            file: "a b.json", position: SourcePosition(line: 4, column: 2), ruleId: "degraded", severity: .warning,
            message: "shown as classic"),
        ]),
      Report.Subject(file: "a b.json", name: "[1]", findings: []),
    ])

  @Test func text() {
    let text = ReportFormat.text.render(Self.report)
    #expect(text.contains("a b.json [0]: classic card\n  a b.json:3:7: error [schema] 50%"))
    #expect(text.contains("  a b.json:4:2: warning [degraded] shown as classic\n"))
    #expect(text.contains("50%\\r\\nbad: <x> & \\u0001\n"))
    #expect(text.hasSuffix("a b.json [1]\n  ok\n"))
  }

  @Test func workflowCommandsEscapeDataAndProperties() {
    let lines = ReportFormat.github.render(Self.report).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == "::error file=a b.json,line=3,col=7,title=schema::50%25%0D%0Abad: <x> & \\u0001")
    #expect(WorkflowCommands.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
  }

  @Test func sarifCitesRulesByIndex() throws {
    let document = SARIFFormat.document(Self.report)
    let run = try #require(document["runs"]?.arrayValue?.first)
    #expect(run["tool"]?["driver"]?["rules"]?.arrayValue?.count == 2)
    let results = try #require(run["results"]?.arrayValue)
    #expect(results.count == 2)
    #expect(results[1]["ruleIndex"] == 1 && results[1]["level"] == "warning")
    let location = results[0]["locations"]?.arrayValue?.first?["physicalLocation"]
    #expect(location?["artifactLocation"]?["uri"] == "a%20b.json")
    #expect(location?["region"]?["startLine"] == 3 && location?["region"]?["startColumn"] == 7)
    #expect(results[0]["properties"]?["jsonPointer"] == "/0/t")
    #expect(SARIFFormat.uri("/tmp/é.json") == "file:///tmp/%C3%A9.json")
  }

  @Test func junitFailsOnlyWhatFailsTheRun() {
    let strict = ReportFormat.junit.render(Self.report, failOn: .warning)
    #expect(strict.ranges(of: "<failure ").count == 2)
    #expect(strict.contains("tests=\"2\" failures=\"1\""))
    #expect(strict.contains("message=\"3:7: 50%&#13;&#10;bad: &lt;x&gt; &amp; \\u{1}\""))
    let lenient = ReportFormat.junit.render(Self.report, failOn: .error)
    #expect(lenient.ranges(of: "<failure ").count == 1)
    #expect(lenient.contains("<system-out>a b.json:4:2: warning [degraded] shown as classic</system-out>"))
    #expect(ReportFormat.junit.render(Self.report, failOn: .never).contains("failures=\"0\""))
  }

  @Test func failOnThresholds() {
    let findings = Self.report.findings
    #expect(FailOn.warning.fails(findings) && FailOn.error.fails(findings) && !FailOn.never.fails(findings))
    #expect(!FailOn.error.fails(findings.filter { $0.severity == .warning }))
  }
}
