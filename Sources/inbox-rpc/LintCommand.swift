import InboxApp
import InboxLint
import InboxPreview
import LintReport
import Posix

/// `inbox-rpc lint [--format F] [--fail-on L] [--html FILE.html] [--snapshot DIR [--check]]
/// [--platform NAME] [--wallet-passes] [--locale TAG] [--every-locale] [--now SECONDS] PATH...`:
/// checks payloads as a marketer wrote them and says what each card will become on each device
/// and every problem, at its line and column, in a format a terminal or a CI system reads; keeps
/// or compares each payload's cards as a snapshot.
enum LintCommand {
  static let help = """
    USAGE: inbox-rpc lint [--format text|json|sarif|junit|github] [--fail-on error|warning|never]
                          [--html FILE.html] [--snapshot DIR [--check]] [--explain] [--platform NAME]
                          [--wallet-passes] [--locale TAG] [--every-locale] [--now SECONDS] PATH...

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
      --snapshot DIR    Also write each payload's cards (per platform and locale asked) to
                        DIR/ID.json, ID its derived id (a send request's sr-..., a message's own).
      --check           With --snapshot: compare instead, and fail (exit 1) where a card
                        changed, showing the diff and the file to update. A payload without a
                        snapshot gets one written, unless CI=true: then it fails (Jest's --ci).
                        Snapshots resolve at --now, by default 1767225600 (2026-01-01 UTC),
                        so that dates stay the same from run to run.
      --platform NAME   The host platform (wallet cards need ios or maccatalyst); keeps only that
                        platform's verdict of a request that names platforms (a name or a code).
      --wallet-passes   The host can add wallet passes.
      --locale TAG      The user's language (BCP 47: de-AT, then de, then the payload's default
                        en, then its first language): the title, body and labels of the cards.
      --every-locale    A verdict per language a payload writes its title or body in.
      --explain         With each verdict, the rules the resolver applied in order, each with the
                        value it read and where, ending in the card (rule explain, notes; the
                        words of docs/engine.md, each rule linked to its section).
      --now SECONDS     The send time (default: now).

    Lines and columns are 1-based; a column counts UTF-16 code units from the start of the line
    (SARIF's default), a byte order mark not included. Schema problems sit at the offending value,
    engine warnings at the field their rule is about (displayType, buttons, carousel, the field
    the asked-for kind needs, the custom data) when the payload has it, refusals at the payload.

    Rules: schema, notInboxMessage, notJSON, unreadable (errors); degraded, unknownDisplayType,
    buttonDropped, unknownButtonAction, invalidButtonURL, slideDropped, invalidCustomData,
    invalidField, unsafeScheme, missingLanguage (warnings).

    EXIT CODES: 0 no finding at or above --fail-on; 1 a finding at or above it, or a snapshot
    that does not match (or is missing under CI=true, or cannot be written); 2 bad command
    line; 3 a file cannot be read or is not JSON (whatever --fail-on says; it is also reported
    as a finding).
    """

  static func run(_ arguments: [String]) -> Int32 {
    var format = ReportFormat.text
    var failOn = FailOn.warning
    var html: String?
    var snapshotDirectory: String?
    var checksSnapshots = false
    var explains = false
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
      case "--snapshot":
        guard let value = remaining.popFirst() else { return .failed("--snapshot needs a DIR") }
        snapshotDirectory = value
      case "--check": checksSnapshots = true
      case "--explain": explains = true
      default: return .notMine
      }
      return .taken
    }
    var (flags, paths): (PayloadFlags, [String])
    switch parsed {
    case .exit(let code): return code
    case .run(let parsedFlags, let parsedFiles): (flags, paths) = (parsedFlags, parsedFiles)
    }
    guard !paths.isEmpty else { return PayloadFlags.usage("lint", "name at least one PATH (or - for standard input)") }
    flags.explains = explains
    if checksSnapshots && snapshotDirectory == nil { return PayloadFlags.usage("lint", "--check needs --snapshot DIR") }
    if snapshotDirectory != nil && !flags.namesNow { flags.now = Snapshots.defaultNow }
    var snapshots = snapshotDirectory.map { directory in
      SnapshotDirectory(
        path: directory, mode: checksSnapshots ? .check : .update, environment: Environment.process["CI"],
        updateCommand: Snapshots.updateCommand(arguments, files: paths))
    }

    let (chosen, keepsEntries, conditions) = (format, html != nil, flags.conditions)
    let keepsSnapshots = snapshots != nil
    var run = LintRun(format: format, failOn: failOn, keepsEntries: keepsEntries)
    let files = LintInput.expand(paths)
    // Files are linted a batch at a time, spread over the cores, their output written in the order
    // named, one write per batch: the memory held is that of the batch's files, whatever the corpus.
    let batch = max(1, Threads.cores * 32)
    for start in stride(from: 0, to: files.count, by: batch) {
      let done = Parallel.map(Array(files[start..<min(start + batch, files.count)])) { path in
        LintedFile.lint(
          path, conditions: conditions, format: chosen, keepsEntries: keepsEntries, keepsSnapshots: keepsSnapshots)
      }
      // A file that cannot be read is also said on stderr, by name, before its batch's output.
      for case let complaint? in done.map(\.complaint) {
        StandardStreams.writeStderr("inbox-rpc lint: " + complaint + "\n")
      }
      let output = run.add(done)
      if !output.isEmpty { StandardStreams.writeStdout(output) }
      if snapshots != nil {
        let said = done.map { snapshots!.take($0.snapshots) }.joined()
        if !said.isEmpty { StandardStreams.writeStderr(said.escapingControlCharacters(keeping: ["\n"])) }
      }
    }
    if let snapshots { StandardStreams.writeStderr("inbox-rpc lint: " + snapshots.summary) }
    if format.writesAtEnd { StandardStreams.writeStdout(format.render(run.report, failOn: failOn)) }
    if let html {
      let options = PreviewPage.Options(title: "Lint preview", subtitle: flags.platformName)
      if !PageOutput.write(PreviewPage.html(run.entries, options: options), to: html, command: "lint") { return 3 }
    }
    if run.unreadable { return 3 }
    return run.fails || snapshots?.fails == true ? 1 : 0
  }
}
