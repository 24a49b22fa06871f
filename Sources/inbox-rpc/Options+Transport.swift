#if canImport(Glibc)
  import Glibc
#endif

/// The flags of the backend's https transport. They are taken out of the command line before
/// `Options.parse` reads the rest, and their lines join the help under the sync options.
extension Options {
  struct Transport {
    /// A PEM file of the CA certificates to trust for https to the backend instead of the system's
    /// (`--backend-ca-file`, else `INBOX_RPC_BACKEND_CA_FILE`); nil: the system's.
    var caFile: String?
  }

  static let transportHelp = """
      --backend-ca-file PATH      Trust the CA certificates in PATH (PEM) for https to the backend
                                  instead of the system's (a private CA; env INBOX_RPC_BACKEND_CA_FILE).
    """

  /// `help` with the transport's lines after `--backend-timeout`'s.
  static var helpWithTransport: String {
    var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let after = lines.firstIndex { $0.contains("--backend-timeout") }.map { $0 + 1 } ?? lines.count
    lines.insert(transportHelp, at: after)
    return lines.joined(separator: "\n")
  }

  /// The transport's settings, from the environment and then `arguments` (flags win), and the
  /// arguments left for `parse`. The CA file must be readable now: a typo should stop the start,
  /// not surface at the first sync.
  static func takeTransport(from arguments: [String], environment: [String: String]) throws(UsageError) -> (
    Transport, [String]
  ) {
    var transport = Transport()
    var source = "INBOX_RPC_BACKEND_CA_FILE"
    if let path = environment[source], !path.isEmpty { transport.caFile = path }
    var rest: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let flag = "--backend-ca-file"
      if argument == flag {
        guard let path = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
        transport.caFile = path
        source = flag
      } else if argument.hasPrefix(flag + "=") {
        transport.caFile = String(argument.dropFirst(flag.count + 1))
        source = flag
      } else {
        rest.append(argument)
      }
    }
    if let path = transport.caFile {
      guard !path.isEmpty else { throw UsageError(description: "\(source) needs a file path") }
      guard access(path, R_OK) == 0 else { throw UsageError(description: "\(source): cannot read \(path)") }
    }
    return (transport, rest)
  }
}
