import InboxApp
import InboxCore
import InboxLint
import JSON
import Posix

/// The flags `lint` and `preview` share: the host the cards are resolved for (its platform, which
/// also narrows a request's `platforms`, and its locale), and the time.
struct PayloadFlags {
  var attributes = Attributes()
  var now = Clock.unixSeconds
  /// Whether `--now` named the time.
  var namesNow = false
  /// A verdict per language a payload is written in (`--every-locale`).
  var everyLocale = false
  /// The resolver's rules with each verdict (`lint --explain`).
  var explains = false

  /// What the flags ask of `PayloadLint` beyond the attributes.
  var options: PayloadLint.Options { conditions.options }

  /// What `lint` lints each payload under.
  var conditions: LintConditions {
    LintConditions(attributes: attributes, now: now, everyLocale: everyLocale, explains: explains)
  }

  enum Parsed {
    case taken, notMine
    case failed(String)
  }

  /// Takes `argument` (and its value from `remaining`) when it is one of these flags.
  mutating func parse(_ argument: String, _ remaining: inout ArraySlice<String>) -> Parsed {
    switch argument {
    case "--wallet-passes": attributes.walletPasses = true
    case "--platform":
      guard let value = remaining.popFirst() else { return .failed("--platform needs a value") }
      attributes.platform = value
    case "--locale":
      guard let value = remaining.popFirst(), LanguageTag.isWellFormed(value) else {
        return .failed("--locale needs a BCP 47 language tag such as de-AT")
      }
      attributes.locale = value
    case "--every-locale": everyLocale = true
    case "--now":
      guard let value = remaining.popFirst().flatMap({ Int64($0) }) else { return .failed("--now needs unix seconds") }
      now = value
      namesNow = true
    default: return .notMine
    }
    return .taken
  }

  /// What a command line of `lint` or `preview` asks for: run, or exit with a code (help printed: 0;
  /// usage said on stderr: 2).
  enum CommandLine {
    case run(PayloadFlags, files: [String])
    case exit(Int32)
  }

  /// Reads a command line: help, these flags, the command's `own` options, and files (`-` is
  /// standard input; any other word starting with `-` is an unknown option).
  static func commandLine(
    _ arguments: [String], command: String, help: String, own: (String, inout ArraySlice<String>) -> Parsed
  ) -> CommandLine {
    var flags = PayloadFlags()
    var files: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "-h" || argument == "--help" {
        StandardStreams.writeStdout(help + "\n")
        return .exit(0)
      }
      var outcome = flags.parse(argument, &remaining)
      if case .notMine = outcome { outcome = own(argument, &remaining) }
      switch outcome {
      case .taken: continue
      case .failed(let message): return .exit(usage(command, message))
      case .notMine:
        if argument.hasPrefix("-"), argument != "-" { return .exit(usage(command, "unknown option \(argument)")) }
        files.append(argument)
      }
    }
    return .run(flags, files: files)
  }

  /// Says what is wrong with a command line; returns its exit code, 2.
  static func usage(_ command: String, _ message: String) -> Int32 {
    StandardStreams.writeStderr("inbox-rpc \(command): \(message)\nRun 'inbox-rpc \(command) --help' for usage.\n")
    return 2
  }

  /// The flags as an AttributesPatch, to apply over attributes saved with a store.
  var patch: JSONValue {
    var patch: JSONObject = [:]
    if let platform = attributes.platform { patch["platform"] = .string(platform) }
    if attributes.walletPasses == true { patch["walletPasses"] = true }
    if let locale = attributes.locale { patch["locale"] = .string(locale) }
    return .object(patch)
  }

  /// The platform as the page's subtitle says it.
  var platformName: String { attributes.platform.map { "platform \($0)" } ?? "no platform" }
}

/// Reading a payload file (`-` for standard input) as `lint` and `preview` do.
enum PayloadFile {
  /// The file's JSON, or nil after saying on stderr why it cannot be read.
  static func read(_ file: String, command: String) -> JSONValue? {
    do {
      let bytes = file == "-" ? try Files.readAll(0) : try Files.contents(of: file)
      return try JSONValue.parse(bytes: bytes, options: JSONReadOptions(maxDepth: 256))
    } catch {
      StandardStreams.writeStderr("inbox-rpc \(command): " + "\(file): \(error)".escapingControlCharacters + "\n")
      return nil
    }
  }
}
