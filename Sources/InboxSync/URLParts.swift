/// `scheme://[userinfo@]host[:port][/path][?query][#fragment]`, split as RFC 3986 reads it: the one
/// reader behind both the backend URL check (`BackendURL`) and each request's target (`HTTPURL`).
struct URLParts: Equatable {
  /// Lower-cased.
  var scheme: String
  /// What comes before `@` in the authority (credentials), as written; nil when there is no `@`.
  var userInfo: String?
  /// As written; an IPv6 literal without its brackets.
  var host: String
  var isIPv6Literal: Bool
  /// The digits after `:`, nil when no port is written.
  var port: String?
  /// From the first `/` after the authority up to `?` or `#` (may be empty).
  var path: String
  /// After `?`, nil when there is none.
  var query: String?
  var hasFragment: Bool

  /// Why a text is not a URL, in words that finish "the URL … ".
  struct Invalid: Error, Equatable {
    var reason: String
  }

  /// Refuses a text with no scheme, an unclosed IPv6 literal, white space or control characters,
  /// or a port that is not 1 to 65535 in decimal (an empty port counts as none).
  init(_ text: String) throws(Invalid) {
    guard let separator = text.firstRange(of: "://") else { throw Invalid(reason: "is not an absolute URL") }
    let scheme = text[..<separator.lowerBound]
    guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
      scheme.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
      })
    else { throw Invalid(reason: "has no valid scheme") }
    var rest = text[separator.upperBound...]
    guard rest.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
      throw Invalid(reason: "has a space or a control character in it")
    }
    hasFragment = rest.contains("#")
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    query = rest.firstIndex(of: "?").map { String(rest[rest.index(after: $0)...]) }
    if let mark = rest.firstIndex(of: "?") { rest = rest[..<mark] }
    let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    path = String(rest[authorityEnd...])
    userInfo = authority.lastIndex(of: "@").map { String(authority[..<$0]) }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw Invalid(reason: "has an unclosed IPv6 address") }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      isIPv6Literal = true
      let after = authority[authority.index(after: close)...]
      guard after.isEmpty || after.hasPrefix(":") else {
        throw Invalid(reason: "has something after its IPv6 address")
      }
      port = after.count > 1 ? String(after.dropFirst()) : nil
    } else if let colon = authority.lastIndex(of: ":") {
      host = String(authority[..<colon])
      isIPv6Literal = false
      let digits = authority[authority.index(after: colon)...]
      port = digits.isEmpty ? nil : String(digits)
    } else {
      host = String(authority)
      isIPv6Literal = false
      port = nil
    }
    if let port {
      guard port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = UInt16(port), number > 0 else {
        throw Invalid(reason: "has an invalid port")
      }
    }
    self.scheme = scheme.lowercased()
  }

  var hasUserInfo: Bool { userInfo != nil }

  /// The host as it goes into a URL: an IPv6 literal in brackets.
  var bracketedHost: String { isIPv6Literal ? "[\(host)]" : host }
}
