import InboxApp
import InboxLint
import InboxPreview
import JSON
import LintReport
import Posix

/// `inbox-rpc lint [--format F] [--fail-on L] [--html FILE.html] [--platform NAME] [--wallet-passes]
/// [--locale TAG] [--every-locale] [--now SECONDS] PATH...`: checks payloads as a marketer wrote
/// them and says what each card will become on each device and every problem, at its line and
/// column, in a format a terminal or a CI system reads.
enum LintCommand {
  static let help = """
    USAGE: inbox-rpc lint [--format text|json|sarif|junit|github] [--fail-on error|warning|never]
                          [--html FILE.html] [--platform NAME] [--wallet-passes] [--locale TAG]
                          [--every-locale] [--now SECONDS] PATH...

    Checks payloads against the input schemas (Schemas/shapes/SendRequestNotification and
    MarketerData) and the engine's rules, and reports what each card will become with every
    finding at its file, line and column. A file holds a createMessage request, one notification
    object, an array of them, a push payload or a backend inbox message; a directory stands for its
    *.json files at any depth; - reads standard input.

    A notification with "platforms" (the Messages API's codes: 1 ios, 3 android, 7 macos,
    8 windows, 9 amazon, 10 safari, 11 chrome, 12 firefox, 17 huawei) gets one verdict per
    platform, named "request.notifications[0] on android"; without it, one verdict for the
    host the flags describe.

      --format NAME     text (default): a line per verdict, then file:line:column: severity [rule]
                        message per finding. json: one LintReport (Schemas/) per file, a line each.
                        sarif: one SARIF 2.1.0 log. junit: JUnit XML, a test case per verdict.
                        github: GitHub Actions workflow commands (::error file=...,line=...,col=...::).
      --json            The same as --format json.
      --fail-on LEVEL   The least severity that fails the run: error, warning (default) or never.
      --html FILE.html  Also write the cards as InboxKit lays them out, warnings beside each
                        (the page of `inbox-rpc preview`).
      --platform NAME   The host platform (wallet cards need ios or maccatalyst); keeps only that
                        platform's verdict of a request that names platforms (a name or a code).
      --wallet-passes   The host can add wallet passes.
      --locale TAG      The user's language (BCP 47: de-AT, then de, then the payload's default
                        en, then its first language): the title, body and labels of the cards.
      --every-locale    A verdict per language a payload writes its title or body in.
      --now SECONDS     The send time (default: now).

    Lines and columns are 1-based; a column counts UTF-16 code units from the start of the line
    (SARIF's default), a byte order mark not included. Schema problems sit at the offending value,
    engine warnings at the field their rule is about (displayType, buttons, carousel, the field
    the asked-for kind needs, the custom data) when the payload has it, refusals at the payload.

    Rules: schema, notInboxMessage, notJSON, unreadable (errors); degraded, unknownDisplayType,
    buttonDropped, unknownButtonAction, invalidButtonURL, slideDropped, invalidCustomData,
    invalidField, unsafeScheme, missingLanguage (warnings).

    EXIT CODES: 0 no finding at or above --fail-on; 1 a finding at or above it; 2 bad command
    line; 3 a file cannot be read or is not JSON (whatever --fail-on says; it is also reported
    as a finding).
    """

  static func run(_ arguments: [String]) -> Int32 {
    var format = ReportFormat.text
    var failOn = FailOn.warning
    var html: String?
    let parsed = PayloadFlags.commandLine(arguments, command: "lint", help: help) { argument, remaining in
      switch argument {
      case "--json": format = .json
      case "--format":
        guard let value = remaining.popFirst().flatMap(ReportFormat.init(flag:)) else {
          return .failed("--format needs one of \(ReportFormat.names)")
        }
        format = value
      case "--fail-on":
        guard let value = remaining.popFirst().flatMap(FailOn.init(flag:)) else {
          return .failed("--fail-on needs error, warning or never")
        }
        failOn = value
      case "--html":
        guard let value = remaining.popFirst() else { return .failed("--html needs a FILE.html") }
        html = value
      default: return .notMine
      }
      return .taken
    }
    let (flags, paths): (PayloadFlags, [String])
    switch parsed {
    case .exit(let code): return code
    case .run(let parsedFlags, let parsedFiles): (flags, paths) = (parsedFlags, parsedFiles)
    }
    guard !paths.isEmpty else { return PayloadFlags.usage("lint", "name at least one PATH (or - for standard input)") }

    let (chosen, keepsEntries) = (format, html != nil)
    var run = LintRun(format: format, failOn: failOn, keepsEntries: keepsEntries)
    let files = LintInput.expand(paths)
    // Files are linted a batch at a time, spread over the cores, their output written in the order
    // named, one write per batch: the memory held is that of the batch's files, whatever the corpus.
    let batch = max(1, Threads.cores * 32)
    for start in stride(from: 0, to: files.count, by: batch) {
      let done = Parallel.map(Array(files[start..<min(start + batch, files.count)])) { path in
        LintedFile.lint(path, flags: flags, format: chosen, keepsEntries: keepsEntries)
      }
      run.add(done)
    }
    let report = Report(
      tool: LintRun.tool,
      rules: LintRules.catalogue(citedBy: run.kept.flatMap(\.findings)), subjects: run.kept)
    if format == .sarif || format == .junit { StandardStreams.writeStdout(format.render(report, failOn: failOn)) }
    if let html {
      let options = PreviewPage.Options(title: "Lint preview", subtitle: flags.platformName)
      if !PageOutput.write(PreviewPage.html(run.entries, options: options), to: html, command: "lint") { return 3 }
    }
    if run.unreadable { return 3 }
    return run.fails ? 1 : 0
  }
}

/// One file linted: its subjects, and its output when the format writes file by file.
struct LintedFile: Sendable {
  var subjects: [Report.Subject]
  var output: String
  var unreadable: Bool
  var entries: [PreviewEntry]

  static func lint(
    _ path: Result<String, LintInput.FileProblem>, flags: PayloadFlags, format: ReportFormat, keepsEntries: Bool
  ) -> LintedFile {
    let input: LintInput
    switch path.flatMap({ file in LintInput.bytes(of: file).map { (file, SourceText($0)) } }) {
    case .success(let (file, text)):
      if let listed = ListedPayloads(file: file, text: text),
        let linted = lint(listed, flags: flags, format: format, keepsEntries: keepsEntries)
      {
        return linted
      }
      input = LintInput.parse(file, text)
    case .failure(let problem):
      input = LintInput(file: problem.finding.file, text: SourceText([]), value: .failure(problem))
    }
    switch input.value {
    case .failure(let problem):
      // The file's name and the reason hold the name as given: shown as text for people.
      StandardStreams.writeStderr(
        "inbox-rpc lint: " + "\(input.file): \(problem.finding.message)".escapingControlCharacters + "\n")
      let subject = LintFindings.subject(problem)
      let output = format == .json ? LintJSON.line(file: input.file, reports: [], [subject]) : ""
      return LintedFile(subjects: [subject], output: output, unreadable: true, entries: []).rendered(format)
    case .success(let value):
      let (reports, subjects) = verdicts(value, in: input, flags: flags)
      let output = format == .json ? LintJSON.line(file: input.file, reports: reports, subjects) : ""
      let entries = keepsEntries ? FeedPreview.entries(file: input.file, reports: reports) : []
      return LintedFile(subjects: subjects, output: output, unreadable: false, entries: entries).rendered(format)
    }
  }

  /// A file's listed payloads linted on every core, each written out as it is linted (text and
  /// github); nil when one is not JSON, for the file read whole to say where it breaks.
  static func lint(_ listed: ListedPayloads, flags: PayloadFlags, format: ReportFormat, keepsEntries: Bool)
    -> LintedFile?
  {
    let keepsReports = format == .json || keepsEntries
    let linted = Parallel.map(Array(0..<listed.count)) { index -> LintedPayload? in
      guard
        let (reports, subjects) = listed.lint(
          index, attributes: flags.attributes, now: flags.now, options: flags.options)
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
  static func verdicts(_ value: JSONValue, in input: LintInput, flags: PayloadFlags)
    -> (reports: [PayloadLint.Report], subjects: [Report.Subject])
  {
    let reports = PayloadLint.lint(value, attributes: flags.attributes, now: flags.now, options: flags.options)
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

/// What a run has seen so far: whether it fails, and what the formats that write once at the end
/// (SARIF, JUnit) and the HTML page need.
struct LintRun {
  static let tool = Report.Tool(name: "inbox-rpc lint", version: ServerInfo.version)

  let format: ReportFormat
  let failOn: FailOn
  let keepsEntries: Bool
  var kept: [Report.Subject] = []
  var entries: [PreviewEntry] = []
  var unreadable = false
  var fails = false

  init(format: ReportFormat, failOn: FailOn, keepsEntries: Bool) {
    self.format = format
    self.failOn = failOn
    self.keepsEntries = keepsEntries
  }

  mutating func add(_ files: [LintedFile]) {
    let output = files.map(\.output).joined()
    if !output.isEmpty { StandardStreams.writeStdout(output) }
    for file in files {
      unreadable = unreadable || file.unreadable
      fails = fails || file.subjects.contains { failOn.fails($0.findings) }
      if format == .sarif || format == .junit { kept += file.subjects }
      if keepsEntries { entries += file.entries }
    }
  }
}
