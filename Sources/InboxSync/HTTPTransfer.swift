import Posix

/// One HTTP/1.1 POST to an `http://` or `https://` URL, on a connection of its own (through a
/// CONNECT tunnel when `request.proxy` names a proxy for it), on the calling thread.
///
/// The request says `Connection: close` and the reply is read until its framing ends (see
/// `HTTPResponseParser`). Redirects are not followed (the `Authorization` header must not travel to
/// another host): a 3xx reply comes back with its `Location`. Connecting (name lookup, TCP, TLS) is
/// bounded by `connectTimeout`, the whole call by `timeout`, and every wait checks `isCancelled` at
/// least every `TransferDeadline.slice` milliseconds, so a cancelled sync stops promptly. No failure
/// carries a request header: the token stays out of every message.
struct HTTPTransfer {
  struct Request {
    var url: String
    /// `Name: value` lines (no line breaks in them).
    var headers: [String]
    var body: [UInt8]
    /// Seconds allowed to connect, and for the whole transfer.
    var connectTimeout: Double
    var timeout: Double
    var maxReplyBytes: Int
    var userAgent: String
    /// A PEM file of the CAs to trust for https instead of the system's; nil: the system's.
    var caFile: String? = nil
    /// The proxy an https request tunnels through, unless `no_proxy` lists its host.
    var proxy = ProxySettings.direct
  }

  struct Reply {
    var httpStatus: Int
    var body: [UInt8]
    /// The `Location` of a 3xx reply, made absolute.
    var redirectURL: String?
  }

  enum Failure: Error, Equatable {
    /// The server could not be reached or the exchange broke off; `reason` says how (never a header).
    case transport(reason: String)
    case cancelled
    case tooLarge(limit: Int)
  }

  /// Bytes asked of the connection at a time.
  private static let readSize = 64 * 1024

  static func perform(_ request: Request, isCancelled: @escaping @Sendable () -> Bool) throws(Failure) -> Reply {
    let start = Clock.monotonicNanoseconds
    let url: HTTPURL
    do {
      url = try HTTPURL(request.url)
    } catch {
      throw .transport(reason: error.reason)
    }
    let message = try encode(request, to: url)
    let whole = TransferDeadline(seconds: request.timeout, from: start, isCancelled: isCancelled)
    let connecting = TransferDeadline(
      seconds: min(request.connectTimeout, request.timeout), from: start, isCancelled: isCancelled)

    let context = url.secure ? try TLSContext.shared(caFile: request.caFile) : nil
    let proxy = try request.proxy.proxy(for: url)
    let connection = try HTTPConnection.open(url, tls: context, via: proxy, by: connecting)
    try connection.write(message, by: whole)

    var parser = HTTPResponseParser(maxBodyBytes: request.maxReplyBytes)
    var buffer = [UInt8](repeating: 0, count: readSize)
    while true {
      let count = try connection.read(into: &buffer, by: whole)
      let response: HTTPResponseParser.Response?
      do {
        response = count == 0 ? try parser.end() : try parser.consume(buffer[0..<count])
      } catch {
        if case .tooLarge(let limit) = error { throw .tooLarge(limit: limit) }
        throw .transport(reason: error.reason)
      }
      if let response {
        let location = (300..<400).contains(response.status) ? response.headers["location"].map(url.resolving) : nil
        return Reply(httpStatus: response.status, body: response.body, redirectURL: location)
      }
    }
  }

  /// The request's bytes: request line, `Host`, `User-Agent`, the given headers, `Content-Length`,
  /// `Connection: close`, a blank line, the body. A header with a line break in it is refused
  /// (it would forge more headers), without being shown.
  static func encode(_ request: Request, to url: HTTPURL) throws(Failure) -> [UInt8] {
    var head = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
    for (index, line) in (["User-Agent: \(request.userAgent)"] + request.headers).enumerated() {
      let bytes = line.utf8
      guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != bytes.startIndex,
        !bytes.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
      else {
        let which = index == 0 ? "the User-Agent header" : "request header \(index)"
        throw .transport(reason: "\(which) is not a single `Name: value` line")
      }
      head += line + "\r\n"
    }
    head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + request.body
  }
}
