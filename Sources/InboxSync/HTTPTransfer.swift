internal import CCurl
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// One HTTP POST (or GET, without a body) to an `https://` URL (or `http://` to a loopback host)
/// through libcurl, on the calling thread, over a session whose connection the next call reuses.
///
/// libcurl negotiates HTTP/2 where the server offers it, accepts compressed replies, verifies the
/// server's certificate and name (TLS 1.2 or later), and goes through the proxy it is given.
/// Redirects are not followed (the `Authorization` header must not travel to another host): a 3xx
/// reply comes back with its `Location`. Connecting is bounded by `connectTimeout`, the whole call
/// by `timeout`, and `isCancelled` is asked at least every `slice` milliseconds, so a cancelled sync
/// stops promptly. No failure carries a request header: the token stays out of every message.
struct HTTPTransfer {
  struct Request {
    var url: String
    /// `Name: value` lines (no line breaks in them).
    var headers: [String]
    /// The POST's body; nil for a GET.
    var body: [UInt8]?
    /// Seconds allowed to connect, and for the whole transfer.
    var connectTimeout: Double
    var timeout: Double
    var maxReplyBytes: Int
    var userAgent: String
    /// A PEM file of the CAs to trust for https (and an https proxy) instead of the system's.
    var caFile: String? = nil
    var proxy = ProxySettings.direct
  }

  struct Reply {
    var httpStatus: Int
    var body: [UInt8]
    /// The `Location` of a 3xx reply, made absolute.
    var redirectURL: String?
    /// The `Content-Type` the server sent, nil when none.
    var contentType: String? = nil
  }

  enum Failure: Error, Equatable {
    /// The server could not be reached or the exchange broke off; `reason` says how (never a header).
    case transport(reason: String)
    case cancelled
    case tooLarge(limit: Int)
  }

  /// The longest wait before `isCancelled` is asked again, in milliseconds.
  static let slice: Int32 = 20

  /// Runs `request`; `received` hears the bytes received so far and the length the reply announced
  /// (nil: none) at each step of the transfer.
  static func perform(
    _ request: Request, on session: CurlSession, isCancelled: () -> Bool,
    received: ((Int, Int?) -> Void)? = nil
  ) throws(Failure) -> Reply {
    let target = try TransferTarget(request.url)
    let proxy = try request.proxy.proxy(for: target)
    if let index = request.headers.firstIndex(where: { $0.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }) {
      throw .transport(reason: "request header \(index + 1) is not a single `Name: value` line")
    }
    try start(request, target, proxy: proxy?.url ?? "", on: session)
    while ccurl_step(session.pointer, slice) != 0 {
      if isCancelled() {
        ccurl_abort(session.pointer)
        throw .cancelled
      }
      if let received {
        var (count, expected): (Int64, Int64) = (0, -1)
        ccurl_received(session.pointer, &count, &expected)
        received(Int(count), expected >= 0 ? Int(expected) : nil)
      }
    }
    var result = ccurl_result()
    ccurl_result_get(session.pointer, &result)
    defer { ccurl_release_body(session.pointer) }  // copied out: an idle session holds no reply
    if let failure = TransferOutcome(result, target: target, proxy: proxy, request: request).failure { throw failure }
    return Reply(
      httpStatus: result.http_status, body: Array(UnsafeBufferPointer(start: result.body, count: result.body_length)),
      redirectURL: (300..<400).contains(result.http_status) ? result.location.map { String(cString: $0) } : nil,
      contentType: result.content_type.map { String(cString: $0) })
  }

  /// Hands the request to libcurl (which copies every string before this returns).
  private static func start(_ request: Request, _ target: TransferTarget, proxy: String, on session: CurlSession)
    throws(Failure)
  {
    let strings = [request.url, target.protocolName, request.userAgent, proxy, request.proxy.exceptions]
    let code = withCStrings(strings + [request.caFile ?? ""] + request.headers) { texts in
      (request.body ?? []).withUnsafeBytes { body in
        let headers = Array(texts[(strings.count + 1)...])
        return headers.withUnsafeBufferPointer { lines in
          var options = ccurl_request()
          (options.url, options.protocol, options.user_agent, options.proxy, options.no_proxy) =
            (texts[0], texts[1], texts[2], texts[3], texts[4])
          options.ca_file = request.caFile == nil ? nil : texts[strings.count]
          options.headers = lines.baseAddress
          options.header_count = Int32(lines.count)
          // A POST's body is never NULL (NULL asks for a GET), even when it is empty.
          options.body =
            request.body == nil ? nil : body.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
          options.body_length = body.count
          options.connect_timeout_ms = milliseconds(min(request.connectTimeout, request.timeout))
          options.timeout_ms = milliseconds(request.timeout)
          options.max_reply_bytes = Int64(request.maxReplyBytes)
          return ccurl_start(session.pointer, &options)
        }
      }
    }
    guard code == 0 else {
      var result = ccurl_result()
      ccurl_result_get(session.pointer, &result)
      throw .transport(reason: "libcurl refused the request: \(String(cString: result.error))")
    }
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    // Rounded up: a call given what is left of a sync times out at or after its deadline, never before.
    Int((min(max(seconds, 0.001), 1e9) * 1000).rounded(.up))
  }
}

/// Runs `body` with C strings of `strings` (freed afterwards).
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  return body(copies.map { UnsafePointer($0) })
}
