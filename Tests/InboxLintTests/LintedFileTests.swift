import Foundation
import InboxCore
import JSON
import LintReport
import Testing

@testable import InboxLint

/// A file linted as `inbox-rpc lint` lints it: a verdict per payload (per platform a payload
/// names), its output in the format asked for, and a file that cannot be read as a finding of its own.
struct LintedFileTests {
  static let now: Int64 = 1_790_000_000

  static let payloads = [
    #"{"inbox_days": 7, "content": "Hi"}"#,
    #"{"inbox_days": 7, "content": "Sale", "data": {"displayType": "carousel"}}"#,
    #"{"inbox_days": 7, "content": "Both", "platforms": [1, 3]}"#,
  ]

  /// `text` written to a file of its own; the caller removes it.
  static func file(_ text: String) throws -> String {
    let path = NSTemporaryDirectory() + "lint-\(UUID().uuidString).json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func lint(
    _ text: String, format: ReportFormat = .text, conditions: LintConditions = LintConditions(now: now)
  ) throws -> (path: String, linted: LintedFile) {
    let path = try file(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return (path, LintedFile.lint(.success(path), conditions: conditions, format: format, keepsEntries: true))
  }

  @Test func aListGetsAVerdictPerPayloadAndPerPlatformItNames() throws {
    let (path, linted) = try Self.lint("[" + Self.payloads.joined(separator: ",\n") + "]", format: .sarif)
    #expect(linted.subjects.map(\.name) == ["[0]", "[1]", "[2] on ios", "[2] on android"])
    #expect(linted.subjects.allSatisfy { $0.file == path })
    #expect(linted.subjects[0].findings.isEmpty)
    #expect(linted.subjects[1].findings.map(\.ruleId).contains("degraded"))
    #expect(linted.subjects[1].findings.allSatisfy { $0.position.line == 2 })
    #expect(!linted.unreadable && linted.complaint == nil)
    #expect(linted.entries.count == 4)
    #expect(linted.worst == .warning)
  }

  /// The formats that write each file as it is linted keep no subjects for the end of the run,
  /// only the most severe finding, which says whether the file fails it.
  @Test func aFileWrittenAsItIsLintedKeepsOnlyItsWorstFinding() throws {
    for format in [ReportFormat.text, .github, .json] {
      let (_, linted) = try Self.lint("[" + Self.payloads.joined(separator: ",\n") + "]", format: format)
      #expect(linted.subjects.isEmpty && linted.worst == .warning && !linted.output.isEmpty)
    }
    let (_, clean) = try Self.lint("[" + Self.payloads[0] + "]")
    #expect(clean.worst == nil)
  }

  @Test func theTextFormatSaysEachVerdictThenItsFindings() throws {
    let (path, linted) = try Self.lint("[" + Self.payloads.joined(separator: ",\n") + "]")
    let lines = linted.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "\(path) [0]: classic card \"Hi\"")
    #expect(lines[1] == "  ok")
    #expect(lines[2].hasPrefix("\(path) [1]: classic card \"Sale\" (asked for carousel)"))
    #expect(lines.contains { $0.hasPrefix("  \(path):2:") && $0.contains(": warning [degraded] ") })
    #expect(lines.last == "")
  }

  @Test func theConditionsHostNarrowsARequestsPlatforms() throws {
    var attributes = Attributes()
    attributes.platform = "android"
    let conditions = LintConditions(attributes: attributes, now: Self.now)
    let (_, linted) = try Self.lint(Self.payloads[2], format: .junit, conditions: conditions)
    #expect(linted.subjects.map(\.name) == ["payload on android"])
  }

  @Test func theJSONFormatWritesALineForTheFile() throws {
    let (path, linted) = try Self.lint("[" + Self.payloads.joined(separator: ",") + "]", format: .json)
    #expect(linted.output.hasSuffix("}\n") && linted.output.filter { $0 == "\n" }.count == 1)
    let line = try JSONValue.parse(bytes: Array(linted.output.utf8))
    #expect(line["file"]?.stringValue == path)
    #expect(line["findings"]?.arrayValue?.isEmpty == false)
  }

  @Test func aFileThatIsNotJSONIsAFindingAndAComplaint() throws {
    let (path, linted) = try Self.lint(#"[{"content": "a"}, {"a": 1,}]"#)
    #expect(linted.unreadable && linted.worst == .error)
    #expect(linted.complaint?.hasPrefix("\(path): ") == true)
    #expect(linted.output.hasPrefix("\(path) file\n  \(path):1:"))
    let (_, kept) = try Self.lint(#"[{"content": "a"}, {"a": 1,}]"#, format: .sarif)
    #expect(kept.subjects.map(\.name) == ["file"])
    #expect(kept.subjects.first?.findings.map(\.ruleId) == ["notJSON"])
  }

  @Test func aFileThatCannotBeReadIsAFindingAndAComplaint() {
    let path = NSTemporaryDirectory() + "lint-missing-\(UUID().uuidString).json"
    let linted = LintedFile.lint(
      .success(path), conditions: LintConditions(now: Self.now), format: .github, keepsEntries: false)
    #expect(linted.unreadable && linted.worst == .error && linted.subjects.isEmpty)
    #expect(linted.complaint?.hasPrefix("\(path): ") == true)
    #expect(linted.output.hasPrefix("::error file=\(path),"))
  }

  @Test func aLintRunFailsOnAFindingAtOrAboveItsLevel() throws {
    let clean = try Self.lint(Self.payloads[0]).linted
    let warned = try Self.lint(Self.payloads[1]).linted
    for (failOn, fails) in [(FailOn.warning, true), (.error, false), (.never, false)] {
      var run = LintRun(format: .text, failOn: failOn, keepsEntries: false)
      #expect(run.add([clean, warned]) == clean.output + warned.output)
      #expect(run.fails == fails)
      #expect(!run.unreadable)
      #expect(run.report.subjects.isEmpty && run.entries.isEmpty)
    }
    var run = LintRun(format: .text, failOn: .warning, keepsEntries: false)
    _ = run.add([clean])
    #expect(!run.fails)
  }

  @Test func aLintRunKeepsWhatTheFormatsThatWriteAtTheEndNeed() throws {
    let listed = try Self.lint("[" + Self.payloads.joined(separator: ",") + "]", format: .sarif).linted
    let missing = LintedFile.lint(
      .success("/nonexistent/lint.json"), conditions: LintConditions(now: Self.now), format: .sarif, keepsEntries: true)
    var run = LintRun(format: .sarif, failOn: .never, keepsEntries: true)
    #expect(run.add([listed, missing]) == "")
    #expect(run.unreadable && !run.fails)
    #expect(run.report.subjects.map(\.name) == ["[0]", "[1]", "[2] on ios", "[2] on android", "file"])
    let cited = Set(run.report.subjects.flatMap(\.findings).map(\.ruleId))
    #expect(cited.isSubset(of: Set(run.report.rules.map(\.id))))
    #expect(run.report.tool.name == "inbox-rpc lint")
    #expect(run.entries.count == 4)
  }
}
