internal import COpenSSL
import InboxCore

/// An HTTP proxy that https requests tunnel through with `CONNECT` (RFC 9110 §9.3.6), as curl and
/// most tools do when `https_proxy` is set: the proxy sees the backend's name and port, never the
/// request, its token or the reply, which stay inside TLS from end to end.
///
/// Written as `http://[user:password@]host[:port]` or plain `host[:port]` (read as http); the port
/// defaults to 1080, as curl's does. Only http proxies: an `https://` or `socks…://` proxy is refused
/// with a reason rather than silently bypassed. Credentials in the URL (percent-decoded) go in a
/// `Proxy-Authorization: Basic` header and are never shown.
struct HTTPProxy: Equatable, Sendable {
  var host: String
  var port: UInt16
  /// The `Proxy-Authorization` header's value, nil without credentials.
  var authorization: String?

  init(host: String, port: UInt16, authorization: String? = nil) {
    self.host = host
    self.port = port
    self.authorization = authorization
  }

  /// Reads a proxy URL; a reason that never repeats the credentials when it is not usable.
  init(_ text: String) throws(HTTPURL.Invalid) {
    let trimmed = text.trimmingWhitespace()
    let written = trimmed.contains("://") ? trimmed : "http://" + trimmed
    let parts: URLParts
    do { parts = try URLParts(written) } catch { throw HTTPURL.Invalid(reason: "the proxy URL \(error.reason)") }
    guard parts.scheme == "http" else {
      throw HTTPURL.Invalid(reason: "the proxy URL uses \(parts.scheme)://; only http:// proxies are supported")
    }
    guard !parts.host.isEmpty else { throw HTTPURL.Invalid(reason: "the proxy URL has no host") }
    host = parts.host
    port = parts.port.flatMap { UInt16($0) } ?? 1080
    authorization = try parts.userInfo.map(Self.basicAuthorization)
  }

  /// For messages: `host port N`, and `the proxy host port N`.
  var hostAndPort: String { "\(host) port \(port)" }
  var description: String { "the proxy \(hostAndPort)" }

  /// `Basic base64(user:password)` of the percent-decoded user info.
  private static func basicAuthorization(_ userInfo: String) throws(HTTPURL.Invalid) -> String {
    guard let decoded = percentDecoded(userInfo) else {
      throw HTTPURL.Invalid(reason: "the proxy URL's credentials are not valid percent-encoding")
    }
    var encoded = [UInt8](repeating: 0, count: (decoded.count + 2) / 3 * 4 + 1)
    let length = EVP_EncodeBlock(&encoded, decoded, Int32(decoded.count))
    return "Basic " + String(decoding: encoded.prefix(Int(length)), as: UTF8.self)
  }

  /// `%XX` escapes decoded to bytes; nil for a `%` not followed by two hex digits.
  private static func percentDecoded(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    var bytes = text.utf8.makeIterator()
    while let byte = bytes.next() {
      guard byte == UInt8(ascii: "%") else {
        output.append(byte)
        continue
      }
      guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else { return nil }
      output.append(high << 4 | low)
    }
    return output
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
