import InboxApp
import InboxLSP
import InboxLint
import LintReport
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// `inbox-rpc lsp`: the language server on standard input and output, its diagnostics made by the
/// very lint `inbox-rpc lint` runs (docs/editors.md).
enum LSPCommand {
  static let help = """
    USAGE: inbox-rpc lsp [--stdio]

    A Language Server Protocol (3.17) server for inbox payload files on standard input and output:
    lint findings as diagnostics, the card a payload becomes on hover, completion from Schemas/,
    quick fixes, and the card preview as HTML (command inboxRpc.preview). Settings (section
    inboxRpc): platform, locale, walletPasses, debounceMilliseconds. See docs/editors.md.
    """

  static func run(_ arguments: [String]) -> Int32 {
    for argument in arguments {
      switch argument {
      case "--stdio": continue  // what editors pass; standard input and output are all it speaks
      case "-h", "--help":
        StandardStreams.writeStdout(help + "\n")
        return 0
      default: return PayloadFlags.usage("lsp", "unknown option \(argument)")
      }
    }
    StandardStreams.ignoreSIGPIPE()
    let output = StandardStreams.reserveStdoutForProtocol()
    return StdioTransport.serve(input: STDIN_FILENO, output: output, linter: lint)
  }

  /// A buffer linted as `inbox-rpc lint --platform --locale [--wallet-passes]` lints the saved file.
  @Sendable static func lint(_ file: String, _ bytes: [UInt8], _ settings: LintSettings) -> LintedDocument {
    let input = LintInput.parse(file, bytes)
    switch input.value {
    case .failure(let problem):
      return LintedDocument(findings: [problem.finding], reports: [])
    case .success(let value):
      var flags = PayloadFlags()
      flags.attributes = settings.attributes
      let (reports, subjects) = LintedFile.verdicts(value, in: input, flags: flags)
      return LintedDocument(findings: subjects.flatMap(\.findings), reports: reports)
    }
  }
}
