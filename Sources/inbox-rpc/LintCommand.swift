import InboxApp
import InboxPreview
import JSON
import LintReport
import Posix

/// `inbox-rpc lint [--format F] [--fail-on L] [--html FILE.html] [--platform NAME] [--wallet-passes]
/// [--now SECONDS] PATH...`: checks payloads as a marketer wrote them and says what each card will
/// become and every problem, at its line and column, in a format a terminal or a CI system reads.
enum LintCommand {
  static let help = """
    USAGE: inbox-rpc lint [--format text|json|sarif|junit|github] [--fail-on error|warning|never]
                          [--html FILE.html] [--platform NAME] [--wallet-passes] [--now SECONDS] PATH...

    Checks payloads against the input schemas (Schemas/shapes/SendRequestNotification and
    MarketerData) and the engine's rules, and reports what each card will become with every
    finding at its file, line and column. A file holds a createMessage request, one notification
    object, an array of them, a push payload or a backend inbox message; a directory stands for its
    *.json files at any depth; - reads standard input.

      --format NAME     text (default): a line per payload, then file:line:column: severity [rule]
                        message per finding. json: one LintReport (Schemas/) per file, a line each.
                        sarif: one SARIF 2.1.0 log. junit: JUnit XML, a test case per payload.
                        github: GitHub Actions workflow commands (::error file=...,line=...,col=...::).
      --json            The same as --format json.
      --fail-on LEVEL   The least severity that fails the run: error, warning (default) or never.
      --html FILE.html  Also write the cards as InboxKit lays them out, warnings beside each
                        (the page of `inbox-rpc preview`).
      --platform NAME   The host platform (wallet cards need ios or maccatalyst).
      --wallet-passes   The host can add wallet passes.
      --now SECONDS     The send time (default: now).

    Lines and columns are 1-based; a column counts UTF-16 code units from the start of the line
    (SARIF's default), a byte order mark not included. Schema problems sit at the offending value,
    engine warnings at the field their rule is about (displayType, buttons, carousel, the field
    the asked-for kind needs, the custom data) when the payload has it, refusals at the payload.

    Rules: schema, notInboxMessage, notJSON, unreadable (errors); degraded, unknownDisplayType,
    buttonDropped, unknownButtonAction, invalidButtonURL, slideDropped, invalidCustomData,
    invalidField, unsafeScheme (warnings).

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

    var unreadable = false
    var subjects: [Report.Subject] = []
    var entries: [PreviewEntry] = []
    for path in LintInput.expand(paths) {
      let input: LintInput
      switch path {
      case .success(let file): input = LintInput.read(file)
      case .failure(let problem):
        input = LintInput(file: problem.finding.file, text: SourceText([]), value: .failure(problem))
      }
      switch input.value {
      case .failure(let problem):
        // The file's name and the reason hold the name as given: shown as text for people.
        StandardStreams.writeStderr(
          "inbox-rpc lint: " + "\(input.file): \(problem.finding.message)".escapingControlCharacters + "\n")
        unreadable = true
        let subject = LintFindings.subject(problem)
        subjects.append(subject)
        if format == .json { StandardStreams.writeStdout(LintJSON.line(file: input.file, reports: [], [subject])) }
      case .success(let value):
        let reports = PayloadLint.lint(value, attributes: flags.attributes, now: flags.now)
        let found = reports.map { LintFindings.subject($0, in: input, payload: $0.pointer.value(in: value) ?? value) }
        subjects += found
        if format == .json { StandardStreams.writeStdout(LintJSON.line(file: input.file, reports: reports, found)) }
        if html != nil { entries += FeedPreview.entries(file: input.file, reports: reports) }
      }
    }
    let report = Report(
      tool: Report.Tool(name: "inbox-rpc lint", version: ServerInfo.version),
      rules: LintRules.catalogue(citedBy: subjects.flatMap(\.findings)), subjects: subjects)
    if format != .json { StandardStreams.writeStdout(format.render(report, failOn: failOn)) }
    if let html {
      let options = PreviewPage.Options(title: "Lint preview", subtitle: flags.platformName)
      if !PageOutput.write(PreviewPage.html(entries, options: options), to: html, command: "lint") { return 3 }
    }
    if unreadable { return 3 }
    return failOn.fails(report.findings) ? 1 : 0
  }
}
