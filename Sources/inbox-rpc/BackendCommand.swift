import Dispatch
import InboxApp
import InboxBackend
import JSON
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// `inbox-rpc backend`: a double of the Pushwoosh inbox backend on 127.0.0.1, for hosts' tests
/// (docs/backend-double.md).
enum BackendCommand {
  static let help = """
    USAGE: inbox-rpc backend [--fixture FILE] [--application CODE] [--token-file FILE]
                             [--fault RULE]... [--log FILE|-] [--cert PEM --key PEM] [options]

    A double of the Pushwoosh inbox backend: getInboxMessages and inboxStatus, as the server's
    sync calls them (docs/sync.md#the-backend-contract), on 127.0.0.1. Its first line on stdout
    is its base URL, printed once it listens, ready for --backend-url. Statuses only go up; a
    message at 4 (deleted by the user) or 5 (by the service) leaves the list. Every user gets a
    copy of the fixture on its first call. See docs/backend-double.md.

      --fixture FILE        Backend messages as the service lists them, a recorded reply, or
                            createMessage notifications (turned into backend messages as the
                            service would). Default: the sample feed.
      --application CODE    Refuse other application codes (status_code 210). Default: any.
      --token-file FILE     Refuse requests without `Authorization: Token <token>` (HTTP 401);
                            else INBOX_RPC_API_TOKEN. Default: any token, or none.
      --log FILE|-          Every request as a JSON line (headers, body, the reply's status,
                            fault and whether it was applied; never the token). Default: -
                            (stdout, after the URL line).
      --cert PEM --key PEM  Serve https with this certificate and key.
      --url-host NAME       The host named in the printed URL (default 127.0.0.1; e.g. the
                            name the certificate carries).
      --port N              Listen on N (default: any free port).
      --for SECONDS         Exit 0 after this long (default: until killed).
      --max-request-bytes N A request body beyond N bytes is answered 413 (default 65536).
      --max-fixture-bytes N A larger fixture is refused at start (default 16777216).
      --help                This text.

    \(FaultRule.grammar)

    EXIT CODES: 0 --for elapsed; 2 bad command line; 3 the fixture, certificate or log cannot
    be read or written, libmicrohttpd cannot be loaded, or the port cannot be had.
    """

  struct Flags {
    var fixture: String?
    var application: String?
    var tokenFile: String?
    var log = "-"
    var cert: String?
    var key: String?
    var urlHost = "127.0.0.1"
    var port = 0
    var runFor: Double?
    var maxRequestBytes = 64 * 1024
    var maxFixtureBytes = 16 * 1024 * 1024
    var faults: [FaultRule] = []
  }

  static func run(_ arguments: [String], environment: Environment) -> Int32 {
    let flags: Flags
    do {
      guard let parsed = try parse(arguments) else {
        StandardStreams.writeStdout(help + "\n")
        return 0
      }
      flags = parsed
    } catch {
      return PayloadFlags.usage("backend", error.description)
    }
    let token: String?
    do {
      token = try Options.apiToken(file: flags.tokenFile, environment: environment)?.0.secret
    } catch {
      return PayloadFlags.usage("backend", error.description)
    }
    StandardStreams.ignoreSIGPIPE()
    do {
      let double = try makeDouble(flags, token: token)
      let listener = try HTTPListener(
        port: flags.port, identity: try identity(flags), limits: limits(flags), handle: double.handle)
      let scheme = flags.cert == nil ? "http" : "https"
      StandardStreams.writeStdout("\(scheme)://\(flags.urlHost):\(listener.port)\(double.settings.prefix)\n")
      if let seconds = flags.runFor {
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
          listener.stop()
          exit(0)
        }
      }
      dispatchMain()
    } catch {
      StandardStreams.writeStderr("inbox-rpc backend: \(String(describing: error).escapingControlCharacters)\n")
      return 3
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private static func makeDouble(_ flags: Flags, token: String?) throws -> BackendDouble {
    var settings = BackendDouble.Settings()
    settings.application = flags.application
    settings.token = token
    let fixture = try BackendFixture.read(try fixtureValue(flags), now: Clock.unixSeconds)
    return BackendDouble(
      settings: settings, inbox: BackendInbox(fixture), faults: FaultPlan(flags.faults), log: try log(flags))
  }

  private static func fixtureValue(_ flags: Flags) throws -> JSONValue {
    guard let path = flags.fixture else { return try JSONValue.parse(bytes: SampleFeed.json) }
    var status = stat()
    guard stat(path, &status) == 0 else { throw SystemError.current("--fixture: cannot read \(path)") }
    guard Int(status.st_size) <= flags.maxFixtureBytes else {
      throw Failure(
        description: "--fixture: \(path) is \(status.st_size) bytes, above --max-fixture-bytes \(flags.maxFixtureBytes)"
      )
    }
    let bytes = try Files.contents(of: path)
    guard bytes.count <= flags.maxFixtureBytes else {
      throw Failure(description: "--fixture: \(path) is above --max-fixture-bytes \(flags.maxFixtureBytes)")
    }
    do {
      return try JSONValue.parse(bytes: bytes)
    } catch {
      throw Failure(description: "--fixture: \(path) is not JSON: \(error)")
    }
  }

  private static func log(_ flags: Flags) throws -> RequestLog {
    if flags.log == "-" { return RequestLog(fd: STDOUT_FILENO) }
    let fd = FileName.withCString(flags.log) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600) }
    guard fd >= 0 else { throw SystemError.current("--log: cannot write \(flags.log)") }
    return RequestLog(fd: fd)
  }

  private static func identity(_ flags: Flags) throws -> HTTPListener.Identity? {
    guard let cert = flags.cert, let key = flags.key else { return nil }
    let text = { (path: String) throws -> String in String(decoding: try Files.contents(of: path), as: UTF8.self) }
    return HTTPListener.Identity(certificate: try text(cert), key: try text(key))
  }

  private static func limits(_ flags: Flags) -> HTTPListener.Limits {
    var limits = HTTPListener.Limits()
    limits.maxBodyBytes = flags.maxRequestBytes
    return limits
  }

  /// The flags, or nil when help was asked for.
  static func parse(_ arguments: [String]) throws(Options.UsageError) -> Flags? {
    var flags = Flags()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      let (name, inline) = split(argument)
      if name == "-h" || name == "--help" { return nil }
      guard name.hasPrefix("--") else { throw Options.UsageError(description: "unexpected argument \(argument)") }
      guard let value = inline ?? rest.popFirst() else {
        throw Options.UsageError(description: "\(name) needs a value")
      }
      switch name {
      case "--fixture": flags.fixture = value
      case "--application": flags.application = value
      case "--token-file": flags.tokenFile = value
      case "--log": flags.log = value
      case "--cert": flags.cert = value
      case "--key": flags.key = value
      case "--url-host": flags.urlHost = value
      case "--port": flags.port = try number(name, value, in: 0...65535)
      case "--for":
        guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
          throw Options.UsageError(description: "--for needs seconds above 0 (at most 86400), not \(value)")
        }
        flags.runFor = seconds
      case "--max-request-bytes": flags.maxRequestBytes = try number(name, value, in: 1...(64 << 20))
      case "--max-fixture-bytes": flags.maxFixtureBytes = try number(name, value, in: 1...(1 << 30))
      case "--fault":
        do {
          flags.faults.append(try FaultRule(value))
        } catch {
          throw Options.UsageError(description: error.description)
        }
      default: throw Options.UsageError(description: "unknown option \(name)")
      }
    }
    guard (flags.cert == nil) == (flags.key == nil) else {
      throw Options.UsageError(description: "--cert and --key go together")
    }
    return flags
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func number(_ flag: String, _ text: String, in range: ClosedRange<Int>) throws(Options.UsageError)
    -> Int
  {
    guard let number = Int(text), range.contains(number) else {
      throw Options.UsageError(
        description: "\(flag) needs a whole number in \(range.lowerBound)...\(range.upperBound), not \(text)")
    }
    return number
  }
}
