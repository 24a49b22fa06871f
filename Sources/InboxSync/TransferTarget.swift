/// Where a request goes, as its messages and its checks need it: the scheme, host and port of an
/// `https://` URL, or of an `http://` one to a loopback host (checked again here, right before the
/// call, and enforced by restricting libcurl to that one protocol).
struct TransferTarget: Equatable {
  var secure: Bool
  var host: String
  var port: UInt16

  init(_ url: String) throws(HTTPTransfer.Failure) {
    let parts: URLParts
    do { parts = try URLParts(url) } catch { throw .transport(reason: "the URL \(url) \(error.reason)") }
    switch parts.scheme {
    case "https": secure = true
    case "http" where BackendURL.isLoopback(parts.host): secure = false
    default: throw .transport(reason: "the URL \(url) must use https (http only to a loopback host)")
    }
    guard !parts.hasUserInfo else { throw .transport(reason: "the URL must not carry credentials") }
    host = parts.host
    port = parts.port.flatMap { UInt16($0) } ?? (secure ? 443 : 80)
  }

  /// The one protocol libcurl may use for it.
  var protocolName: String { secure ? "https" : "http" }

  /// For messages: `host port N`.
  var hostAndPort: String { "\(host) port \(port)" }
}
