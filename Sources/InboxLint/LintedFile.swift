import InboxApp
import InboxPreview
import JSON
import LintReport

/// One file linted: its subjects, and its output when the format writes file by file.
public struct LintedFile: Sendable {
  var subjects: [Report.Subject]
  var output: String
  var unreadable: Bool
  var entries: [PreviewEntry]
  /// Why the file could not be linted, as the command says it on stderr: the file's name and the
  /// reason hold the name as given, shown as text for people.
  public var complaint: String?

  public static func lint(
    _ path: Result<String, LintInput.FileProblem>, conditions: LintConditions, format: ReportFormat,
    keepsEntries: Bool
  ) -> LintedFile {
    let input: LintInput
    switch path.flatMap({ file in LintInput.bytes(of: file).map { (file, SourceText($0)) } }) {
    case .success(let (file, text)):
      if let listed = ListedPayloads(file: file, text: text),
        let linted = lint(listed, conditions: conditions, format: format, keepsEntries: keepsEntries)
      {
        return linted
      }
      input = LintInput.parse(file, text)
    case .failure(let problem):
      input = LintInput(file: problem.finding.file, text: SourceText([]), value: .failure(problem))
    }
    switch input.value {
    case .failure(let problem):
      let subject = LintFindings.subject(problem)
      let output = format == .json ? LintJSON.line(file: input.file, reports: [], [subject]) : ""
      var file = LintedFile(subjects: [subject], output: output, unreadable: true, entries: [])
      file.complaint = "\(input.file): \(problem.finding.message)".escapingControlCharacters
      return file.rendered(format)
    case .success(let value):
      let (reports, subjects) = verdicts(value, in: input, conditions: conditions)
      let output = format == .json ? LintJSON.line(file: input.file, reports: reports, subjects) : ""
      let entries = keepsEntries ? FeedPreview.entries(file: input.file, reports: reports) : []
      return LintedFile(subjects: subjects, output: output, unreadable: false, entries: entries).rendered(format)
    }
  }

  /// A file's listed payloads linted on every core, each written out as it is linted (text and
  /// github); nil when one is not JSON, for the file read whole to say where it breaks.
  static func lint(_ listed: ListedPayloads, conditions: LintConditions, format: ReportFormat, keepsEntries: Bool)
    -> LintedFile?
  {
    let keepsReports = format == .json || keepsEntries
    let linted = Parallel.map(Array(0..<listed.count)) { index -> LintedPayload? in
      guard
        let (reports, subjects) = listed.lint(
          index, attributes: conditions.attributes, now: conditions.now, options: conditions.options)
      else { return nil }
      return LintedPayload(reports: keepsReports ? reports : [], subjects: subjects, output: rendered(subjects, format))
    }
    var (reports, subjects, output) = ([PayloadLint.Report](), [Report.Subject](), "")
    for payload in linted {
      guard let payload else { return nil }
      reports += payload.reports
      subjects += payload.subjects
      output += payload.output
    }
    if format == .json { output = LintJSON.line(file: listed.file, reports: reports, subjects) }
    let entries = keepsEntries ? FeedPreview.entries(file: listed.file, reports: reports) : []
    return LintedFile(subjects: subjects, output: output, unreadable: false, entries: entries)
  }

  /// One payload of a list linted: what its file's output needs of it.
  private struct LintedPayload: Sendable {
    var reports: [PayloadLint.Report]
    var subjects: [Report.Subject]
    var output: String
  }

  /// A parsed file's verdicts and, for each, its findings placed in the file.
  public static func verdicts(_ value: JSONValue, in input: LintInput, conditions: LintConditions)
    -> (reports: [PayloadLint.Report], subjects: [Report.Subject])
  {
    let reports = PayloadLint.lint(
      value, attributes: conditions.attributes, now: conditions.now, options: conditions.options)
    let places = PayloadPlaces(input.text, reports: reports)
    let subjects = reports.map {
      LintFindings.subject($0, in: input.file, places: places, payload: $0.pointer.value(in: value) ?? value)
    }
    return (reports, subjects)
  }

  /// The text and github formats say each file as soon as it is linted.
  private func rendered(_ format: ReportFormat) -> LintedFile {
    guard format == .text || format == .github else { return self }
    var copy = self
    copy.output = Self.rendered(subjects, format)
    return copy
  }

  /// What the text and github formats write of `subjects` (each subject's lines stand alone, so a
  /// list's payloads are written one by one); nothing for the formats that write at the end.
  private static func rendered(_ subjects: [Report.Subject], _ format: ReportFormat) -> String {
    guard format == .text || format == .github else { return "" }
    return format.render(Report(tool: LintRun.tool, rules: [], subjects: subjects))
  }
}
