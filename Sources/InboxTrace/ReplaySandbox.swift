import InboxSync
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Where `replay`'s server runs: a throwaway store (`:memory:`, or a private copy of the one
/// `--store` names, in a directory of its own removed at the end), no credentials, and backend
/// calls confined to the loopback listener `--backend-listener` names, or to nothing
/// (`--replay-sandbox`, `ConfinedBackend`). The child's environment is empty (`ChildServer`).
public struct ReplaySandbox: Sendable {
  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  /// The options passed on to the server, the sandbox's own taken out.
  var options: [String] = []
  var listener: BackendURL?
  /// The store `--store` named, copied before the server starts.
  var original: String?
  private var directory: String?

  /// Server options that carry a credential or point the backend somewhere: a replay takes none.
  static let refused: Set<String> = [
    "--token-file", "--application", "--backend-url", "--user-id", "--hwid", "--device-type", "--backend-ca-file",
    "--replay-sandbox",
  ]

  /// The sandbox's server options: the sandbox itself, its store and its listener.
  var serverOptions: [String] {
    var arguments = ["--replay-sandbox", "--store", directory.map { $0 + "/inbox.sqlite" } ?? ":memory:"]
    if let listener { arguments += ["--backend-url", listener.string, "--application", "REPLAY"] }
    return arguments
  }

  /// Reads replay's options after FILE: `--backend-listener` and `--store` are the sandbox's; a
  /// credential or a backend setting is refused, by name only (its value may be a secret).
  public static func make(_ arguments: [String]) -> Result<ReplaySandbox, Problem> {
    var sandbox = ReplaySandbox()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0])
      func value() -> String? { parts.count > 1 ? String(parts[1]) : remaining.popFirst() }
      switch name {
      case _ where refused.contains(name):
        return .failure(
          Problem(
            description: "\(name): a replay takes no credentials and no backend settings (it runs in a sandbox; "
              + "--backend-listener names the one loopback listener its server may reach)"))
      case "--backend-listener":
        guard let text = value(), let url = try? BackendURL(text), url.isClearText else {
          return .failure(Problem(description: "--backend-listener needs an http URL on a loopback address"))
        }
        sandbox.listener = url
      case "--store":
        guard let path = value(), !path.isEmpty else { return .failure(Problem(description: "--store needs a PATH")) }
        sandbox.original = path == ":memory:" ? nil : path
      default:
        sandbox.options.append(argument)
      }
    }
    return .success(sandbox)
  }

  /// Copies the store `--store` named (and its write-ahead log) into a private directory.
  public mutating func prepareStore() throws(SystemError) {
    guard let original else { return }
    let made = try PrivateDirectory.make(
      in: Environment.process["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp", prefix: "inbox-rpc-replay.")
    directory = made
    try Self.copy(original, to: made + "/inbox.sqlite")
    if Files.exists(original + "-wal") { try Self.copy(original + "-wal", to: made + "/inbox.sqlite-wal") }
  }

  private static func copy(_ source: String, to target: String) throws(SystemError) {
    var file = try RegularFile(path: source)
    let out = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard out >= 0 else { throw SystemError.current("cannot copy \(source)") }
    defer { close(out) }
    while let chunk = try file.nextChunk() {
      guard Files.writeAll(out, Array(chunk)) else { throw SystemError.current("cannot copy \(source)") }
    }
  }

  /// Removes the store's copy and everything the server left beside it.
  public func remove() {
    if let directory { PrivateDirectory.remove(directory) }
  }
}
