import InboxStore
import JSONRPC

/// The command line, parsed by hand (no outside packages): `inbox-rpc --help` prints `Options.help`.
struct Options {
  var framing: Framing?
  var maxFrameBytes = 16 * 1024 * 1024
  var maxBatchSize = 1000
  var maxDepth = 64
  var logLevel: Logger.Level = .warn
  var testMethods = false
  /// nil: the default location under `$XDG_DATA_HOME`.
  var store: String?
  var durability: StoreDurability = .normal
  var fullCheck = false
  var sampleFeed = false
  var testClock: Int64?
  var showHelp = false
  var showVersion = false

  /// A mistake on the command line: printed with a hint, exit code 2.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static let help = """
    inbox-rpc — a JSON-RPC 2.0 server on stdin/stdout for a mobile-inbox engine
    (card resolver, buttons, pinning, store, sync with the Pushwoosh inbox backend).

    USAGE: inbox-rpc [options]
           inbox-rpc lint [--json] FILE...   (check marketer payloads: inbox-rpc lint --help)

    Send requests on stdin, one JSON text per line or with Content-Length headers;
    replies come back on stdout in the same framing. Logs go to stderr only.

    OPTIONS:
      --framing auto|ndjson|lsp   How messages are delimited (default: auto, from the first byte).
      --max-frame-bytes N         Largest frame accepted (default: 16777216). Larger: error, keeps serving.
      --max-batch N               Most requests in one batch (default: 1000).
      --max-depth N               Deepest JSON nesting accepted (default: 64).
      --log-level LEVEL           error, warn, info or debug (default: warn; env INBOX_RPC_LOG_LEVEL).
      --store PATH                The inbox store, an SQLite file created with mode 0600 (default:
                                  $XDG_DATA_HOME/inbox-rpc/inbox.sqlite, or ~/.local/share/...);
                                  :memory: for a throwaway store.
      --durability normal|full    normal (default): a committed change survives a crash or kill -9;
                                  full: it also survives a power loss (an fsync per change).
      --check-store               Run a full integrity_check on open (default: quick_check).
      --sample-feed               Seed an empty store with the sample feed (every card kind).
      --test-methods              Also serve the JSON-RPC spec's example methods and test helpers.
      --test-clock SECONDS        Pin the clock at this unix time (tests and recorded examples).
      -h, --help                  Show this help.
      --version                   Show the version.

    EXIT CODES:
      0  end of input, or shutdown then exit     1  exit without shutdown
      2  bad command line                          3  the store cannot be opened or created
      4  the store is damaged or not an inbox store  5  the store is from a newer version
    """

  /// Parses `arguments` (without the program name); the environment supplies defaults flags override.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
    var options = Options()
    if let level = environment["INBOX_RPC_LOG_LEVEL"], let parsed = Logger.Level(name: level) {
      options.logLevel = parsed
    }
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let (flag, inlineValue) = split(argument)
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
        return next
      }
      switch flag {
      case "-h", "--help": options.showHelp = true
      case "--version": options.showVersion = true
      case "--test-methods": options.testMethods = true
      case "--framing":
        let name = try value()
        guard name == "auto" || Framing(rawValue: name) != nil else {
          throw UsageError(description: "--framing must be auto, ndjson or lsp, not \(name)")
        }
        options.framing = Framing(rawValue: name)
      case "--max-frame-bytes": options.maxFrameBytes = try positive(flag, try value())
      case "--max-batch": options.maxBatchSize = try positive(flag, try value())
      case "--max-depth": options.maxDepth = min(try positive(flag, try value()), 2000)
      case "--log-level":
        let name = try value()
        guard let level = Logger.Level(name: name) else {
          throw UsageError(description: "--log-level must be error, warn, info or debug, not \(name)")
        }
        options.logLevel = level
      case "--store": options.store = try value()
      case "--check-store": options.fullCheck = true
      case "--sample-feed": options.sampleFeed = true
      case "--test-clock":
        let text = try value()
        guard let seconds = Int64(text) else {
          throw UsageError(description: "--test-clock needs unix seconds, not \(text)")
        }
        options.testClock = seconds
      case "--durability":
        let name = try value()
        guard let durability = StoreDurability(rawValue: name) else {
          throw UsageError(description: "--durability must be normal or full, not \(name)")
        }
        options.durability = durability
      default: throw UsageError(description: "unknown option \(argument)")
      }
    }
    return options
  }

  /// `--flag=value` or `--flag`.
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func positive(_ flag: String, _ text: String) throws(UsageError) -> Int {
    guard let number = Int(text), number > 0 else {
      throw UsageError(description: "\(flag) needs a positive whole number, not \(text)")
    }
    return number
  }
}
