import InboxCore

#if canImport(Glibc)
  import Glibc
#endif

/// The base URL of the inbox backend, checked once so that no request ever goes out in clear text.
///
/// Accepted: `https://host[:port]/path/`, and `http://` only for a loopback host (`localhost`,
/// `127.0.0.0/8`, `::1`), where nothing crosses a network (a local proxy, the test backend).
/// Refused: any other scheme, `http://` to another host, credentials in the URL (the token goes in a
/// header, never in a URL that may be logged), a query or a fragment. The path always ends with `/`,
/// so `base + "getInboxMessages"` is the request URL, as every SDK builds it (docs/sync.md#the-backend-contract).
public struct BackendURL: Sendable, Hashable, CustomStringConvertible {
  /// The normalised URL, ending with `/`.
  public let string: String

  /// Why a URL was refused, in a sentence that names the rule.
  public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
  }

  /// Checks and normalises `text`.
  public init(_ text: String) throws(Invalid) {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw Invalid(reason: "the backend URL is empty") }
    let parts: URLParts
    do { parts = try URLParts(trimmed) } catch {
      throw Invalid(reason: "the backend URL \(Self.quoted(trimmed)) \(error.reason)")
    }
    guard !parts.host.isEmpty else { throw Invalid(reason: "the backend URL \(Self.quoted(trimmed)) has no host") }
    guard !parts.hasUserInfo else {
      throw Invalid(
        reason: "the backend URL must not carry credentials; the API token is read from INBOX_RPC_API_TOKEN or "
          + "--token-file")
    }
    guard parts.query == nil, !parts.hasFragment else {
      // Not echoed: a query is where a mistaken secret would sit.
      throw Invalid(reason: "the backend URL must not have a query or a fragment")
    }
    switch parts.scheme {
    case "https": break
    case "http":
      guard Self.isLoopback(parts.host) else {
        throw Invalid(
          reason: "the backend URL \(Self.quoted(trimmed)) uses http to a host that is not loopback; "
            + "use https (http is allowed only for localhost, 127.0.0.0/8 and ::1)")
      }
    default:
      throw Invalid(reason: "the backend URL \(Self.quoted(trimmed)) must use https, not \(parts.scheme)")
    }
    let port = parts.port.map { ":\($0)" } ?? ""
    let path = parts.path.hasSuffix("/") ? parts.path : parts.path + "/"
    self.string = "\(parts.scheme)://\(parts.bracketedHost)\(port)\(path)"
  }

  /// `https://{APP_CODE}.api.pushwoosh.com/json/1.3/`, the SDKs' default (docs/sync.md#the-backend-contract).
  public static func pushwooshDefault(application: String) throws(Invalid) -> BackendURL {
    let hostSafe =
      !application.isEmpty && application.utf8.count <= 63
      && application.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
      }
    guard hostSafe else {
      throw Invalid(
        reason: "the application code \(quoted(application)) cannot form the default backend host; "
          + "give the backend URL explicitly (--backend-url)")
    }
    return try BackendURL("https://\(application).api.pushwoosh.com/json/1.3/")
  }

  /// True for `http://`: the token would cross in clear (to this machine only, but to whichever
  /// process listens on the port).
  public var isClearText: Bool { string.hasPrefix("http://") }

  /// This URL when the token may be sent to it without its being given again in this run: https,
  /// or http to the host and port of the clear-text URL the command line or environment gave
  /// (`allowed`: the listener the user chose, whatever the path); nil for another http URL, since a
  /// URL read from the store is only as trusted as the store.
  public func trusted(clearText allowed: BackendURL?) -> BackendURL? {
    !isClearText || origin == allowed?.origin ? self : nil
  }

  /// `scheme://host[:port]`: where the calls go, without the path.
  var origin: Substring {
    let authority = string.index(string.startIndex, offsetBy: string.hasPrefix("https") ? 8 : 7)
    return string[..<(string[authority...].firstIndex(of: "/") ?? string.endIndex)]
  }

  /// The URL of one backend method: the base followed by the method name.
  public func endpoint(_ method: String) -> String { string + method }

  public var description: String { string }

  /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, `::1`
  /// (or an IPv4-mapped loopback address). Host names other than `localhost` are not resolved.
  public static func isLoopback(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" { return true }
    var ipv4 = in_addr()
    if inet_pton(AF_INET, name, &ipv4) == 1 {
      return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
    }
    var ipv6 = in6_addr()
    if inet_pton(AF_INET6, name, &ipv6) == 1 {
      let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
      if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
      let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
      return mapped && bytes[12] == 127
    }
    return false
  }

  private static func quoted(_ text: String) -> String {
    let shown = text.count > 200 ? String(text.prefix(200)) + "…" : text
    return "\"\(shown)\""
  }
}
