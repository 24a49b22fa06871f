import InboxApp
import InboxPreview
import JSON
import LintReport

/// One file linted: what the run needs of it once its output is written.
public struct LintedFile: Sendable {
  /// Its subjects, kept for the formats that write at the end (`ReportFormat.writesAtEnd`).
  var subjects: [Report.Subject]
  /// The most severe of its findings (nil: none), which says whether it fails the run.
  var worst: Severity?
  var output: String
  var unreadable: Bool
  var entries: [PreviewEntry]
  /// Its payloads' cards as `lint --snapshot` keeps them, when asked for.
  public var snapshots: [CardSnapshot] = []
  /// Why the file could not be linted, as the command says it on stderr: the file's name and the
  /// reason hold the name as given, shown as text for people.
  public var complaint: String?

  /// `subjects` and their output; the subjects themselves are kept only when `format` writes them
  /// at the end. (A corpus's subjects, gathered and then freed on one core, were a sixth of a run.)
  init(
    _ subjects: [Report.Subject], worst: Severity?, output: String, format: ReportFormat, unreadable: Bool = false,
    entries: [PreviewEntry] = []
  ) {
    self.subjects = format.writesAtEnd ? subjects : []
    self.worst = worst
    self.output = output
    self.unreadable = unreadable
    self.entries = entries
  }

  public static func lint(
    _ path: Result<String, LintInput.FileProblem>, conditions: LintConditions, format: ReportFormat,
    keepsEntries: Bool, keepsSnapshots: Bool = false
  ) -> LintedFile {
    let input: LintInput
    switch path.flatMap({ file in LintInput.bytes(of: file).map { (file, $0) } }) {
    case .success(let (file, bytes)):
      let (text, listed, whole) = ListedPayloads.read(file: file, bytes: bytes)
      if let listed,
        let linted = lint(
          listed, conditions: conditions, format: format, keepsEntries: keepsEntries, keepsSnapshots: keepsSnapshots)
      {
        return linted
      }
      input = whole.map { LintInput(file: file, text: text, value: .success($0)) } ?? LintInput.parse(file, text)
    case .failure(let problem):
      input = LintInput(file: problem.finding.file, text: SourceText([]), value: .failure(problem))
    }
    switch input.value {
    case .failure(let problem):
      let subject = LintFindings.subject(problem)
      let output =
        format == .json ? LintJSON.line(file: input.file, reports: [], [subject]) : rendered([subject], format)
      var file = LintedFile([subject], worst: worst([subject]), output: output, format: format, unreadable: true)
      file.complaint = "\(input.file): \(problem.finding.message)".escapingControlCharacters
      return file
    case .success(let value):
      let (reports, subjects) = verdicts(value, in: input, conditions: conditions)
      let output =
        format == .json ? LintJSON.line(file: input.file, reports: reports, subjects) : rendered(subjects, format)
      let entries = keepsEntries ? FeedPreview.entries(file: input.file, reports: reports) : []
      var file = LintedFile(subjects, worst: worst(subjects), output: output, format: format, entries: entries)
      if keepsSnapshots { file.snapshots = CardSnapshot.snapshots(file: input.file, reports: reports) }
      return file
    }
  }

  /// A file's listed payloads linted on every core, each written out as it is linted (text and
  /// github); nil when one is not JSON, for the file read whole to say where it breaks.
  static func lint(
    _ listed: ListedPayloads, conditions: LintConditions, format: ReportFormat, keepsEntries: Bool,
    keepsSnapshots: Bool = false
  ) -> LintedFile? {
    let keepsReports = format == .json || keepsEntries || keepsSnapshots
    let keepsSubjects = format == .json || format.writesAtEnd
    let linted = Parallel.map(Array(0..<listed.count)) { index -> LintedPayload? in
      guard
        let (reports, subjects) = listed.lint(
          index, attributes: conditions.attributes, now: conditions.now, options: conditions.options)
      else { return nil }
      return LintedPayload(
        reports: keepsReports ? reports : [], subjects: keepsSubjects ? subjects : [], worst: Self.worst(subjects),
        output: rendered(subjects, format))
    }
    var (reports, subjects, output) = ([PayloadLint.Report](), [Report.Subject](), "")
    var worst: Severity?
    output.reserveCapacity(linted.reduce(0) { $0 + ($1?.output.utf8.count ?? 0) })
    for payload in linted {
      guard let payload else { return nil }
      if keepsReports { reports += payload.reports }
      if keepsSubjects { subjects += payload.subjects }
      output += payload.output
      worst = worse(worst, payload.worst)
    }
    if format == .json { output = LintJSON.line(file: listed.file, reports: reports, subjects) }
    let entries = keepsEntries ? FeedPreview.entries(file: listed.file, reports: reports) : []
    var file = LintedFile(subjects, worst: worst, output: output, format: format, entries: entries)
    if keepsSnapshots { file.snapshots = CardSnapshot.snapshots(file: listed.file, reports: reports) }
    return file
  }

  /// One payload of a list linted: what its file's output needs of it.
  private struct LintedPayload: Sendable {
    var reports: [PayloadLint.Report]
    var subjects: [Report.Subject]
    var worst: Severity?
    var output: String
  }

  /// The more severe of two (nil: no finding).
  private static func worse(_ one: Severity?, _ other: Severity?) -> Severity? {
    guard let one, let other else { return one ?? other }
    return max(one, other)
  }

  /// The most severe finding of `subjects`; nil when they have none.
  private static func worst(_ subjects: [Report.Subject]) -> Severity? {
    subjects.lazy.flatMap(\.findings).worst
  }

  /// A parsed file's verdicts and, for each, its findings placed in the file.
  public static func verdicts(_ value: JSONValue, in input: LintInput, conditions: LintConditions)
    -> (reports: [PayloadLint.Report], subjects: [Report.Subject])
  {
    let reports = conditions.verdicts(of: value)
    let places = PayloadPlaces(input.text, reports: reports)
    let subjects = reports.map {
      LintFindings.subject($0, in: input.file, places: places, payload: $0.pointer.value(in: value) ?? value)
    }
    return (reports, subjects)
  }

  /// What the text and github formats write of `subjects` (each subject's lines stand alone, so a
  /// list's payloads are written one by one); nothing for the formats that write at the end.
  private static func rendered(_ subjects: [Report.Subject], _ format: ReportFormat) -> String {
    guard format == .text || format == .github else { return "" }
    return format.render(Report(tool: LintRun.tool, rules: [], subjects: subjects))
  }
}
