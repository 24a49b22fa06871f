import InboxCore

/// A proxy as `https_proxy` and its kin name it, checked before any call so that a mistyped one is
/// refused with a reason rather than silently bypassed: `[scheme://][user:password@]host[:port]`,
/// with the schemes libcurl speaks (`http`, the default; `https`; `socks4`, `socks4a`, `socks5`,
/// `socks5h`) and port 1080 when none is written, as curl reads it. libcurl does the rest: a
/// CONNECT tunnel (so an https request stays inside TLS from end to end) or a SOCKS handshake,
/// credentials percent-decoded. They are never shown.
struct Proxy: Equatable, Sendable {
  /// Lower-cased.
  var scheme: String
  var host: String
  var port: UInt16
  /// The URL handed to libcurl, credentials included.
  var url: String

  static let schemes: Set = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

  /// Why a proxy variable cannot be used, in words that never repeat its credentials.
  struct Invalid: Error, Equatable, Sendable {
    var reason: String
  }

  init(_ text: String) throws(Invalid) {
    let trimmed = text.trimmingWhitespace()
    url = trimmed.contains("://") ? trimmed : "http://" + trimmed
    let parts: URLParts
    do { parts = try URLParts(url) } catch { throw Invalid(reason: "the proxy URL \(error.reason)") }
    guard Self.schemes.contains(parts.scheme) else {
      throw Invalid(
        reason: "the proxy URL uses \(parts.scheme)://; the proxies supported are "
          + Self.schemes.sorted().map { "\($0)://" }.joined(separator: ", "))
    }
    guard !parts.host.isEmpty else { throw Invalid(reason: "the proxy URL has no host") }
    scheme = parts.scheme
    host = parts.host
    port = parts.port.flatMap { UInt16($0) } ?? 1080
  }

  /// For messages: `host port N`.
  var hostAndPort: String { "\(host) port \(port)" }
  /// `the proxy host port N`, naming the kind unless it is a plain http proxy.
  var description: String { scheme == "http" ? "the proxy \(hostAndPort)" : "the \(scheme) proxy \(hostAndPort)" }
}
