/// An `http://` or `https://` URL taken apart for one request: where to connect, and what to ask for.
///
/// Only what a request needs is kept: the scheme, the host (an IPv6 literal without its brackets),
/// the port (the scheme's own when none is written) and the request target (the path, at least `/`,
/// and any query). A fragment is dropped, as a client never sends it. Credentials in the URL are
/// refused, and so is any byte a request line cannot carry (spaces, control characters).
struct HTTPURL: Equatable {
  var secure: Bool
  var host: String
  var port: UInt16
  var target: String

  /// Why a URL cannot be requested.
  struct Invalid: Error, Equatable {
    var reason: String
  }

  init(secure: Bool, host: String, port: UInt16, target: String) {
    self.secure = secure
    self.host = host
    self.port = port
    self.target = target
  }

  init(_ text: String) throws(Invalid) {
    let parts: URLParts
    do { parts = try URLParts(text) } catch { throw Invalid(reason: "the URL \(text) \(error.reason)") }
    switch parts.scheme {
    case "https": secure = true
    case "http": secure = false
    default: throw Invalid(reason: "the URL \(text) must use http or https")
    }
    guard !parts.hasUserInfo else { throw Invalid(reason: "the URL must not carry credentials") }
    guard !parts.host.isEmpty else { throw Invalid(reason: "the URL \(text) has no host") }
    host = parts.host
    port = parts.port.flatMap { UInt16($0) } ?? (secure ? 443 : 80)
    let path = parts.path.isEmpty ? "/" : parts.path
    target = parts.query.map { "\(path)?\($0)" } ?? path
  }

  /// `https://host:port`, without the port when it is the scheme's own.
  var origin: String { (secure ? "https://" : "http://") + hostHeader }

  /// The `Host` header: an IPv6 literal in brackets, and the port when it is not the scheme's own.
  var hostHeader: String { port == (secure ? 443 : 80) ? bracketedHost : authority }

  /// `host:port` with the port always written, as CONNECT asks for it (an IPv6 literal in brackets).
  var authority: String { "\(bracketedHost):\(port)" }

  private var bracketedHost: String { isIPv6Literal ? "[\(host)]" : host }

  /// For messages: `host port N`.
  var hostAndPort: String { "\(host) port \(port)" }

  var isIPv6Literal: Bool { host.contains(":") }

  /// A `Location` made absolute against this URL (RFC 3986 §5.2, for the forms servers send: an
  /// absolute URL, `//host/path`, `/path`, or a path relative to this one's directory).
  func resolving(_ reference: String) -> String {
    if reference.contains("://") { return reference }
    if reference.hasPrefix("//") { return (secure ? "https:" : "http:") + reference }
    if reference.hasPrefix("/") { return origin + reference }
    let path = target.prefix { $0 != "?" }
    let directory = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
    return origin + directory + reference
  }
}
