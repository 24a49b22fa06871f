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
    guard let separator = text.firstRange(of: "://") else {
      throw Invalid(reason: "the URL \(text) is not absolute")
    }
    switch text[..<separator.lowerBound].lowercased() {
    case "https": secure = true
    case "http": secure = false
    default: throw Invalid(reason: "the URL \(text) must use http or https")
    }
    var rest = text[separator.upperBound...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    let path = rest[authorityEnd...]
    guard !authority.contains("@") else {
      throw Invalid(reason: "the URL must not carry credentials")
    }

    let portText: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else {
        throw Invalid(reason: "the URL \(text) has an unclosed IPv6 address")
      }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let afterHost = authority[authority.index(after: close)...]
      guard afterHost.isEmpty || afterHost.hasPrefix(":") else {
        throw Invalid(reason: "the URL \(text) has something after its IPv6 address")
      }
      portText = afterHost.dropFirst()
    } else if let colon = authority.firstIndex(of: ":") {
      host = String(authority[..<colon])
      portText = authority[authority.index(after: colon)...]
    } else {
      host = String(authority)
      portText = ""
    }
    guard !host.isEmpty else { throw Invalid(reason: "the URL \(text) has no host") }
    if portText.isEmpty {
      port = secure ? 443 : 80
    } else {
      guard portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = UInt16(portText), number > 0 else {
        throw Invalid(reason: "the URL \(text) has an invalid port")
      }
      port = number
    }
    target = path.isEmpty ? "/" : path.hasPrefix("?") ? "/" + path : String(path)
    guard (host + target).utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
      throw Invalid(reason: "the URL has a space or a control character in it")
    }
  }

  /// `https://host:port`, without the port when it is the scheme's own.
  var origin: String { (secure ? "https://" : "http://") + hostHeader }

  /// The `Host` header: an IPv6 literal in brackets, and the port when it is not the scheme's own.
  var hostHeader: String {
    let name = isIPv6Literal ? "[\(host)]" : host
    return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
  }

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
