import InboxCore
import InboxPreview
import InboxServer
import JSON
import Posix

/// `inbox-rpc lint [--json] [--html FILE.html] [--platform NAME] [--wallet-passes] [--now SECONDS] FILE...`: checks
/// payloads as a marketer wrote them and prints what each card will become and every warning.
enum LintCommand {
  static let help = """
    USAGE: inbox-rpc lint [--json] [--html FILE.html] [--platform NAME] [--wallet-passes]
                          [--now SECONDS] FILE...

    Checks payloads against the input schemas (Schemas/shapes/SendRequestNotification and
    MarketerData) and the engine's rules, and prints what each card will become with every
    warning. A FILE holds a createMessage request, one notification object, an array of them,
    a push payload or a backend inbox message; - reads standard input.

      --json            One JSON report per file on stdout.
      --html FILE.html  Also write the cards as InboxKit lays them out, warnings beside each
                        (the page of `inbox-rpc preview`).
      --platform NAME   The host platform (wallet cards need ios or maccatalyst).
      --wallet-passes   The host can add wallet passes.
      --now SECONDS     The send time (default: now).

    EXIT CODES: 0 every payload is clean; 1 warnings, schema problems or refusals;
    2 bad command line; 3 a file cannot be read or is not JSON.
    """

  static func run(_ arguments: [String]) -> Int32 {
    var json = false
    var html: String?
    let parsed = PayloadFlags.commandLine(arguments, command: "lint", help: help) { argument, remaining in
      switch argument {
      case "--json": json = true
      case "--html":
        guard let value = remaining.popFirst() else { return .failed("--html needs a FILE.html") }
        html = value
      default: return .notMine
      }
      return .taken
    }
    let (flags, files): (PayloadFlags, [String])
    switch parsed {
    case .exit(let code): return code
    case .run(let parsedFlags, let parsedFiles): (flags, files) = (parsedFlags, parsedFiles)
    }
    guard !files.isEmpty else { return usage("name at least one FILE (or - for standard input)") }

    var worst: Int32 = 0
    var entries: [PreviewEntry] = []
    for file in files {
      guard let value = PayloadFile.read(file, command: "lint") else {
        worst = 3
        continue
      }
      let reports = PayloadLint.lint(value, attributes: flags.attributes, now: flags.now)
      StandardStreams.writeStdout(json ? render(file, reports).jsonString + "\n" : describe(file, reports))
      if html != nil { entries += FeedPreview.entries(file: file, reports: reports) }
      if worst == 0, reports.contains(where: { !$0.isClean }) { worst = 1 }
    }
    if let html {
      let options = PreviewPage.Options(title: "Lint preview", subtitle: flags.platformName)
      if !PageOutput.write(PreviewPage.html(entries, options: options), to: html, command: "lint") { return 3 }
    }
    return worst
  }

  private static func usage(_ message: String) -> Int32 {
    PayloadFlags.usage("lint", message)
  }

  /// Text for people: one block per payload.
  static func describe(_ file: String, _ reports: [PayloadLint.Report]) -> String {
    var lines: [String] = []
    for report in reports {
      if let card = report.card {
        var head = "\(file) \(report.label): \(card.kind.rawValue) card \"\(card.title ?? card.body ?? card.id)\""
        if let degradation = card.degradation { head += " (asked for \(degradation.from.rawValue))" }
        if !card.buttons.isEmpty { head += ", \(card.buttons.count) button(s)" }
        lines.append(head)
      } else {
        lines.append("\(file) \(report.label): not an inbox message: \(report.refusal ?? "")")
      }
      for problem in report.schemaProblems { lines.append("  schema  \(problem.path): \(problem.message)") }
      for warning in report.warnings { lines.append("  warning [\(warning.code)] \(warning.reason)") }
      if report.isClean { lines.append("  ok") }
    }
    // Payload text (titles, ids, paths) cannot reach the terminal as control characters or break a line.
    return lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n"
  }

  static func render(_ file: String, _ reports: [PayloadLint.Report]) -> JSONValue {
    PayloadLint.json(reports, file: file)
  }
}
