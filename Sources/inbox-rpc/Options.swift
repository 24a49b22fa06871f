import InboxCore
import InboxStore
import InboxSync
import JSONRPC
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// The command line, parsed by hand (no outside packages): `inbox-rpc --help` prints `Options.help`.
struct Options {
  var framing: Framing?
  var maxFrameBytes = 16 * 1024 * 1024
  var maxBatchSize = 1000
  var maxReplyBytes = 16 * 1024 * 1024
  var maxDepth = 64
  var logLevel: Logger.Level = .warn
  var testMethods = false
  /// nil: the default location under `$XDG_DATA_HOME`.
  var store: String?
  var durability: StoreDurability = .normal
  var fullCheck = false
  var sampleFeed = false
  var testClock: Int64?
  /// Backend settings from flags over the environment (`INBOX_RPC_BACKEND_URL`, ...).
  var backend = BackendSettings.Patch()
  var tokenFile: String?
  /// A PEM file of CA certificates to trust for https to the backend instead of the system's.
  var backendCAFile: String?
  /// Where wallet passes are kept; nil: `PassCache.defaultDirectory`.
  var passDirectory: String?
  var backendTimeout: Double = 30
  var syncLeasePatience: Double?
  /// How long a host may take none of the output waiting for it before it is taken as gone.
  var outputPatience: Double = 30
  var syncInterval: Int?
  var minSyncInterval: Int64 = 10
  var maxMessageBytes = MessageSizeLimit.standard.bytes
  var maxSyncReplyBytes = BackendEnvelope.maxReplyBytes
  var showHelp = false
  var showVersion = false
  /// `--trace FILE`: every frame in and out, secrets replaced (docs/tracing.md).
  var trace: String?
  var traceMaxBytes = 64 * 1024 * 1024
  /// `--version --json`: the version report as one JSON object.
  var versionJSON = false
  /// `inbox-rpc mcp --read-only`: only the tools whose annotations say read-only.
  var readOnly = false
  /// `inbox-rpc mcp --tools NAME,...`: only the tools named (nil: every tool).
  var tools: [String]?
  /// `--replay-sandbox` (what `replay` starts its server with): no token, no backend setting from the
  /// environment, and every backend call to `--backend-url` (a loopback listener) or nowhere.
  var sandbox = false

  /// A mistake on the command line: printed with a hint, exit code 2.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static let help = """
    inbox-rpc — a JSON-RPC 2.0 server on stdin/stdout for a mobile-inbox engine
    (card resolver, buttons, pinning, store, sync with the Pushwoosh inbox backend).

    USAGE: inbox-rpc [options]
           inbox-rpc mcp [options]           (the same inbox as an MCP server: tools and resources)
           inbox-rpc lint [--format F] PATH  (check marketer payloads: inbox-rpc lint --help)
           inbox-rpc preview [-o FILE.html]  (draw the cards as HTML: inbox-rpc preview --help)
           inbox-rpc check-trace FILE...     (check a --trace recording against Schemas/)
           inbox-rpc replay FILE [options]   (run a --trace recording's frames again and compare)
           inbox-rpc backend [options]       (a double of the Pushwoosh backend for tests: --help)

    Send requests on stdin, one JSON text per line or with Content-Length headers;
    replies come back on stdout in the same framing. Logs go to stderr only.

    OPTIONS:
      --framing auto|ndjson|lsp   How messages are delimited (default: auto, from the first byte).
      --max-frame-bytes N         Largest frame accepted (default: 16777216). Larger: error, keeps serving.
      --max-batch N               Most requests in one batch (default: 1000).
      --max-reply-bytes N         Reply bytes batches may hold in memory, and the largest single reply
                                  (default: 16777216). A reply past it: -32600, the request still ran.
      --max-depth N               Deepest JSON nesting accepted (default: 64).
      --max-message-bytes N       Largest payload of one message, as compact JSON (default: 262144), on
                                  every way in: ingest refuses it (-32010), a sync skips it with a warning,
                                  and a stored one past it is left out of pages with a warning.
      --log-level LEVEL           error, warn, info or debug (default: warn; env INBOX_RPC_LOG_LEVEL).
      --store PATH                The inbox store, an SQLite file created with mode 0600 (default:
                                  $XDG_DATA_HOME/inbox-rpc/inbox.sqlite, or ~/.local/share/...);
                                  :memory: for a throwaway store (a private file on /dev/shm or
                                  $XDG_RUNTIME_DIR, removed at exit). Refused (exit 3) when it, its -wal or
                                  -shm is a symbolic link, another user's, or writable by others, or
                                  its directory is writable by others without the sticky bit.
      --durability normal|full    normal (default): a committed change survives a crash or kill -9;
                                  full: it also survives a power loss (an fsync per change).
      --check-store               Run a full integrity_check on open (default: quick_check).
      --sample-feed               Seed an empty store with the sample feed (every card kind).
      --test-methods              Also serve the JSON-RPC spec's example methods and test helpers.
      --test-clock SECONDS        Pin the clock at this unix time (tests and recorded examples).
      --output-patience SECONDS   Every reply is written however slowly the host reads, at end of input
                                  and exit too; a host that takes none of the output waiting for it for
                                  SECONDS (default 30) is gone: what is left is dropped, exit 6.
      --trace FILE                Record every frame in and out in FILE, one JSON line each, secrets
                                  replaced (created 0600; docs/tracing.md). inbox-rpc check-trace FILE
                                  checks it against Schemas/; inbox-rpc replay FILE runs it again.
      --trace-max-bytes N         Largest trace file (default: 67108864); then FILE moves to FILE.1.
      --replay-sandbox            What inbox-rpc replay starts its server with: no API token, no backend
                                  setting from the environment, and every backend call sent, without a
                                  token, to --backend-url (a loopback http listener) or, without it, nowhere.

    SYNC WITH THE PUSHWOOSH INBOX BACKEND (saved with the store; config.set changes them too):
      --application CODE          The Pushwoosh application code (env INBOX_RPC_APPLICATION).
      --backend-url URL           The API base (default https://CODE.api.pushwoosh.com/json/1.3/; env
                                  INBOX_RPC_BACKEND_URL). https only; http only to 127.0.0.0/8, ::1, localhost,
                                  and only from here or the environment (a saved one to another host or
                                  port is not used).
                                  libcurl's URL parser reads it at start: a URL it refuses exits 2.
      --user-id ID                The user id (env INBOX_RPC_USER_ID; default: the hwid). A change of
                                  user id or application clears the local inbox.
      --hwid ID                   The device id (env INBOX_RPC_HWID; default: random, made once, kept).
      --device-type N             device_type sent to the backend (default 3).
      --token-file PATH           Read the API token from PATH. Otherwise from the environment variable
                                  INBOX_RPC_API_TOKEN. Never on the command line; never logged.
      --backend-timeout SECONDS   Longest backend call, connecting included (default 30; fractions allowed).
      --backend-ca-file PATH      Trust the CA certificates in PATH (PEM) for https to the backend
                                  instead of the system's (a private CA; env INBOX_RPC_BACKEND_CA_FILE).
                                  https goes through the http:// proxy in https_proxy (or HTTPS_PROXY,
                                  all_proxy), with CONNECT, except to the hosts listed in no_proxy.
      --pass-dir DIR              Keep the wallet passes wallet.download fetches in DIR (made 0700; default
                                  $XDG_CACHE_HOME/inbox-rpc/passes, or ~/.cache/inbox-rpc/passes). Passes
                                  are fetched over https only, through the proxy and CA file above.
      --sync-interval SECONDS     Also sync in the background every SECONDS (default: off).
      --sync-min-interval SECONDS Least time between two fetches unless feed.sync {force: true} (default 10).
      --sync-lease-patience SECONDS
                                  A sync waiting for another process's on the same store runs without
                                  it after SECONDS with no sign of life from it (stopped?): default 15,
                                  at least 4 (twice the holder's 2 s beat).
      --max-sync-reply-bytes N    Largest inbox reply read, decoded (default: 33554432, 16,000 cards of
                                  2 KiB). Larger: the sync fails -32032 and the local inbox is kept.

      -h, --help                  Show this help.
      --version [--json]          Show the version and the SQLite, jansson and libcurl versions in use
                                  (--json: as one JSON object).

    EXIT CODES:
      0  end of input, or shutdown then exit     1  exit without shutdown
      2  bad command line                          3  the store cannot be opened, or is not yours alone
      4  the store is damaged or not an inbox store  5  the store is from a newer version
      6  the host stopped reading its output: replies were dropped (--output-patience)
    """

  /// Parses `arguments` (without the program name); the environment supplies defaults flags override.
  static func parse(_ arguments: [String], environment given: Environment) throws(UsageError) -> Options {
    var options = Options()
    options.sandbox = arguments.contains("--replay-sandbox")
    // A sandboxed server takes nothing from the environment it may have been handed.
    let environment = options.sandbox ? Environment([:]) : given
    if let level = environment["INBOX_RPC_LOG_LEVEL"], let parsed = Logger.Level(name: level) {
      options.logLevel = parsed
    }
    let libcurl = environment["INBOX_RPC_LIBCURL"] ?? HTTPBackend.libcurl
    if let url = environment["INBOX_RPC_BACKEND_URL"], !url.isEmpty {
      options.backend.baseURL = .some(try backendURL("INBOX_RPC_BACKEND_URL", url, libcurl: libcurl))
    }
    if let code = environment["INBOX_RPC_APPLICATION"], !code.isEmpty { options.backend.application = .some(code) }
    if let user = environment["INBOX_RPC_USER_ID"], !user.isEmpty { options.backend.userID = .some(user) }
    if let hwid = environment["INBOX_RPC_HWID"], !hwid.isEmpty { options.backend.hwid = .some(hwid) }
    if let path = environment["INBOX_RPC_BACKEND_CA_FILE"], !path.isEmpty { options.backendCAFile = path }
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
      case "--json": options.versionJSON = true
      case "--test-methods": options.testMethods = true
      case "--read-only": options.readOnly = true
      case "--tools":
        let names = try value().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.contains("") else {
          throw UsageError(description: "--tools needs a comma-separated list of tool names")
        }
        options.tools = (options.tools ?? []) + names
      case "--replay-sandbox": break
      case "--framing":
        let name = try value()
        guard name == "auto" || Framing(rawValue: name) != nil else {
          throw UsageError(description: "--framing must be auto, ndjson or lsp, not \(name)")
        }
        options.framing = Framing(rawValue: name)
      case "--max-frame-bytes": options.maxFrameBytes = try positive(flag, try value())
      case "--max-batch": options.maxBatchSize = try positive(flag, try value())
      case "--max-reply-bytes": options.maxReplyBytes = try positive(flag, try value())
      case "--max-depth": options.maxDepth = min(try positive(flag, try value()), 2000)
      case "--max-message-bytes": options.maxMessageBytes = try positive(flag, try value())
      case "--max-sync-reply-bytes": options.maxSyncReplyBytes = try positive(flag, try value())
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
      case "--trace": options.trace = try value()
      case "--trace-max-bytes": options.traceMaxBytes = try positive(flag, try value())
      case "--durability":
        let name = try value()
        guard let durability = StoreDurability(rawValue: name) else {
          throw UsageError(description: "--durability must be normal or full, not \(name)")
        }
        options.durability = durability
      case "--backend-url": options.backend.baseURL = .some(try backendURL(flag, try value(), libcurl: libcurl))
      case "--application": options.backend.application = .some(try identifier(flag, try value()))
      case "--user-id": options.backend.userID = .some(try identifier(flag, try value()))
      case "--hwid": options.backend.hwid = .some(try identifier(flag, try value()))
      case "--device-type": options.backend.deviceType = .some(Int64(try positive(flag, try value())))
      case "--token-file": options.tokenFile = try value()
      case "--backend-ca-file":
        let path = try value()
        guard !path.isEmpty else { throw UsageError(description: "--backend-ca-file needs a file path") }
        options.backendCAFile = path
      case "--pass-dir":
        let path = try value()
        guard path.hasPrefix("/") else { throw UsageError(description: "--pass-dir needs an absolute directory path") }
        options.passDirectory = path
      case "--backend-timeout": options.backendTimeout = try seconds(flag, try value(), atMost: 3600)
      case "--output-patience": options.outputPatience = try seconds(flag, try value(), atMost: 86400)
      case "--sync-interval": options.syncInterval = try positive(flag, try value())
      case "--sync-lease-patience":
        let text = try value()
        guard let seconds = Double(text), seconds >= 4, seconds <= 3600 else {
          throw UsageError(description: "--sync-lease-patience needs 4 to 3600 seconds, not \(text)")
        }
        options.syncLeasePatience = seconds
      case "--sync-min-interval":
        let text = try value()
        guard let seconds = Int64(text), seconds >= 0 else {
          throw UsageError(description: "--sync-min-interval needs a whole number of seconds, not \(text)")
        }
        options.minSyncInterval = seconds
      case _ where !flag.hasPrefix("-"):
        // Not repeated, not even in part: a stray word on the command line may be a pasted secret.
        throw UsageError(description: "unexpected argument: inbox-rpc takes options only")
      case _ where isTokenFlag(flag):
        // Neither the value nor the flag is repeated: either may carry the secret.
        throw UsageError(
          description: "an option naming a token: the API token is never read from the command line (it would "
            + "show in ps and shell history); set INBOX_RPC_API_TOKEN or use --token-file PATH")
      default:
        // Only the flag's name: a mistyped flag's value may be a secret.
        throw UsageError(description: "unknown option \(flag)")
      }
    }
    if options.sandbox, options.tokenFile != nil || options.backendCAFile != nil {
      throw UsageError(description: "--replay-sandbox takes no token file and no CA file")
    }
    if options.sandbox, case .some(.some(let url)) = options.backend.baseURL, !url.isClearText {
      throw UsageError(description: "--replay-sandbox: --backend-url must name a loopback http listener")
    }
    if options.versionJSON && !options.showVersion {
      throw UsageError(description: "--json goes with --version (inbox-rpc --version --json)")
    }
    // A typo in the CA file should stop the start, not surface at the first sync.
    if let path = options.backendCAFile, access(path, R_OK) != 0 {
      throw UsageError(description: "--backend-ca-file: cannot read \(path)")
    }
    return options
  }

  /// `--token`, `--api-token`, `--token=...`: any attempt to pass the secret itself.
  private static func isTokenFlag(_ flag: String) -> Bool {
    let name = flag.lowercased()
    return name != "--token-file" && (name.contains("token") || name.contains("secret"))
  }

  /// A backend URL as `BackendURL` checks it, then as libcurl reads it (loading libcurl now).
  private static func backendURL(_ source: String, _ text: String, libcurl: String) throws(UsageError) -> BackendURL {
    do {
      return try BackendURL(text).checkedByLibcurl(library: libcurl)
    } catch {
      throw UsageError(description: "\(source): \(error.reason)")
    }
  }

  private static func identifier(_ flag: String, _ text: String) throws(UsageError) -> String {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, trimmed.count <= 256 else {
      throw UsageError(description: "\(flag) needs a non-empty value of at most 256 characters")
    }
    return trimmed
  }

  /// The API token: `--token-file` when given (trimmed; an empty or unreadable file is an error naming
  /// the path, never the content), else `INBOX_RPC_API_TOKEN`, else none.
  func apiToken(environment: Environment) throws(UsageError) -> (APIToken, String)? {
    if sandbox { return nil }
    return try Self.apiToken(file: tokenFile, environment: environment)
  }

  /// The token from `file` when one is named, else from INBOX_RPC_API_TOKEN; with where it came from.
  static func apiToken(file tokenFile: String?, environment: Environment) throws(UsageError) -> (APIToken, String)? {
    if let tokenFile {
      guard let data = try? Files.contents(of: tokenFile) else {
        throw UsageError(description: "--token-file: cannot read \(tokenFile)")
      }
      guard let token = APIToken(String(decoding: data, as: UTF8.self)) else {
        throw UsageError(description: "--token-file: \(tokenFile) is empty")
      }
      return (token, "file")
    }
    if let text = environment["INBOX_RPC_API_TOKEN"], let token = APIToken(text) { return (token, "environment") }
    return nil
  }

  /// `--flag=value` (or `-f=value`: the value is never echoed) or `--flag`.
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// A duration in seconds, fractions allowed, above 0 and at most `limit`.
  private static func seconds(_ flag: String, _ text: String, atMost limit: Double) throws(UsageError) -> Double {
    guard let seconds = Double(text), seconds > 0, seconds <= limit else {
      throw UsageError(description: "\(flag) needs a number of seconds above 0 (at most \(Int(limit))), not \(text)")
    }
    return seconds
  }

  private static func positive(_ flag: String, _ text: String) throws(UsageError) -> Int {
    guard let number = Int(text), number > 0 else {
      throw UsageError(description: "\(flag) needs a positive whole number, not \(text)")
    }
    return number
  }
}
