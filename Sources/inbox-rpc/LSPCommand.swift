import InboxApp
import InboxLSP
import InboxLint
import JSON
import JSONRPC
import LintReport
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// `inbox-rpc lsp`: the language server on standard input and output, its diagnostics made by the
/// very lint `inbox-rpc lint` runs (docs/editors.md).
enum LSPCommand {
  static let help = """
    USAGE: inbox-rpc lsp [--stdio] [--output-patience SECONDS] [--max-frame-bytes N]

    A Language Server Protocol (3.17) server for inbox payload files on standard input and output:
    lint findings as diagnostics, the card a payload becomes on hover, completion from Schemas/,
    quick fixes, and the card preview as HTML (command inboxRpc.preview). Settings (section
    inboxRpc): platform, locale, walletPasses, debounceMilliseconds. See docs/editors.md.

      --output-patience SECONDS   give up on an editor that takes no output this long (default 30):
                                  exit 6, or the exit code asked for once it sent exit
      --max-frame-bytes N         the largest message read (default 16 MiB); a larger one is
                                  refused with -32600 and a window/showMessage
    """

  static func run(_ arguments: [String]) -> Int32 {
    var configuration = Connection.Configuration(framing: .lsp)
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--stdio": continue  // what editors pass; standard input and output are all it speaks
      case "-h", "--help":
        StandardStreams.writeStdout(help + "\n")
        return 0
      case "--output-patience":
        guard let seconds = rest.popFirst().flatMap(Double.init), seconds > 0, seconds <= 86400 else {
          return PayloadFlags.usage("lsp", "--output-patience needs a number of seconds above 0 (at most 86400)")
        }
        configuration.outputPatience = seconds
      case "--max-frame-bytes":
        guard let bytes = rest.popFirst().flatMap({ Int($0) }), bytes > 0 else {
          return PayloadFlags.usage("lsp", "--max-frame-bytes needs a positive whole number")
        }
        configuration.maxFrameBytes = bytes
      default: return PayloadFlags.usage("lsp", "unknown option \(argument)")
      }
    }
    StandardStreams.ignoreSIGPIPE()
    let output = StandardStreams.reserveStdoutForProtocol()
    return LanguageServerFace.serve(
      input: STDIN_FILENO, output: output, configuration: configuration, logger: Logger(level: .warn),
      linter: DocumentLinter(verdicts: verdicts, lint: lint), rulesPage: rulesPage())
  }

  /// The rules' page beside this binary, as a `file:` URI: the package's
  /// `/usr/share/doc/inbox-rpc/editors.md` (installed with the binary in `/usr/bin`), or a
  /// checkout's `docs/editors.md` (built under `.build`). Nil where neither is: diagnostics then
  /// link to no page rather than to one that may not exist.
  static func rulesPage() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    var directory = Files.directory(of: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    var candidates = [Files.directory(of: directory) + "/share/doc/inbox-rpc/editors.md"]
    for _ in 0..<5 where directory.count > 1 {
      candidates.append(directory + "/docs/editors.md")
      directory = Files.directory(of: directory)
    }
    guard let page = candidates.first(where: Files.exists) else { return nil }
    return "file://" + PercentEncoding.encode(page, keeping: "/")
  }

  /// What each payload of a buffer becomes, as `lint` resolves it, without placing its findings.
  @Sendable static func verdicts(_ file: String, _ bytes: [UInt8], _ settings: LintSettings) -> [PayloadLint.Report] {
    guard case .success(let value) = LintInput.parse(file, bytes).value else { return [] }
    return conditions(settings).verdicts(of: value)
  }

  /// A buffer linted as `inbox-rpc lint --platform --locale [--wallet-passes]` lints the saved file.
  @Sendable static func lint(_ file: String, _ bytes: [UInt8], _ settings: LintSettings) -> LintedDocument {
    let input = LintInput.parse(file, bytes)
    switch input.value {
    case .failure(let problem):
      return LintedDocument(findings: [problem.finding], reports: [])
    case .success(let value):
      let (reports, subjects) = LintedFile.verdicts(value, in: input, conditions: conditions(settings))
      // The resolver's reasons are for the hover; `lint --explain`'s notes of them are not diagnostics.
      let findings = subjects.flatMap(\.findings).filter { $0.ruleId != LintRules.explainRule }
      return LintedDocument(findings: findings, reports: reports)
    }
  }

  /// The conditions the editor's settings ask for, at the time of the lint.
  /// Each verdict keeps the resolver's reasons: the hover says why a card is what it is.
  private static func conditions(_ settings: LintSettings) -> LintConditions {
    LintConditions(attributes: settings.attributes, now: Clock.unixSeconds, explains: true)
  }
}
