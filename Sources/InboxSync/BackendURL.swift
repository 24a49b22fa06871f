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
/// so `base + "getInboxMessages"` is the request URL, as every SDK builds it (research §1.1).
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
    guard let parts = Parts(trimmed) else {
      throw Invalid(reason: "the backend URL \(Self.quoted(trimmed)) is not an absolute URL")
    }
    guard !parts.host.isEmpty else { throw Invalid(reason: "the backend URL \(Self.quoted(trimmed)) has no host") }
    guard !parts.hasUserInfo else {
      throw Invalid(
        reason: "the backend URL must not carry credentials; the API token is read from INBOX_RPC_API_TOKEN or "
          + "--token-file")
    }
    guard !parts.hasQueryOrFragment else {
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
    self.string = "\(parts.scheme)://\(parts.host)\(port)\(path)"
  }

  /// `scheme://[userinfo@]host[:port][/path][?query][#fragment]`, split as RFC 3986 reads it.
  private struct Parts {
    var scheme: String
    var host: String
    var port: String?
    var path: String
    var hasUserInfo: Bool
    var hasQueryOrFragment: Bool

    init?(_ text: String) {
      guard let separator = text.firstRange(of: "://") else { return nil }
      let scheme = text[..<separator.lowerBound]
      guard let first = scheme.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
        scheme.unicodeScalars.allSatisfy({
          $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        })
      else { return nil }
      self.scheme = scheme.lowercased()
      var rest = text[separator.upperBound...]
      guard !rest.contains(where: { $0.isWhitespace }) else { return nil }
      hasQueryOrFragment = rest.contains("?") || rest.contains("#")
      if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
      let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
      var authority = rest[..<authorityEnd]
      path = String(rest[authorityEnd...])
      hasUserInfo = authority.contains("@")
      if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
      if authority.hasPrefix("[") {
        guard let close = authority.firstIndex(of: "]") else { return nil }
        host = String(authority[...close])
        let after = authority[authority.index(after: close)...]
        port = after.hasPrefix(":") ? String(after.dropFirst()) : nil
        guard after.isEmpty || after.hasPrefix(":") else { return nil }
      } else if let colon = authority.lastIndex(of: ":") {
        host = String(authority[..<colon])
        port = String(authority[authority.index(after: colon)...])
      } else {
        host = String(authority)
        port = nil
      }
      if let port {
        guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port),
          number <= 65535
        else { return nil }
      }
    }
  }

  /// `https://{APP_CODE}.api.pushwoosh.com/json/1.3/`, the SDKs' default (research §1.1).
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
