import InboxCore

/// Downloads an Apple Wallet pass as InboxKit's "Add to Apple Wallet" button does, under the sync's
/// transport rules (`HTTPTransfer` on libcurl: the CA file and proxy the backend calls use, TLS 1.2
/// or later, a bounded connect and transfer, cancellable), with the pass's own: `https` only, on the
/// first URL and on every redirect (at most `maxRedirects`, each checked before it is followed, so a
/// redirect to `http:` or another scheme is refused, not fetched), a 200 reply, at most `maxBytes`
/// (announced or received, compressed or not), served as `application/vnd.apple.pkpass` or
/// `application/octet-stream`. No request carries a credential: the pass URL came from a payload.
public struct PassDownloader: Sendable {
  /// Seconds allowed to connect, and for each request of the download.
  public var connectTimeout: Double
  public var timeout: Double
  public var userAgent: String
  public var caFile: String?
  public var proxy: ProxySettings
  /// The largest pass accepted: Apple's limit for a pass is far below it.
  public var maxBytes: Int
  private let sessions: CurlSession.Pool

  public static let defaultMaxBytes = 10 << 20
  public static let maxRedirects = 5
  /// The media types a pass may be served as.
  public static let mediaTypes = ["application/vnd.apple.pkpass", "application/octet-stream"]

  public init(
    connectTimeout: Double = 10, timeout: Double = 30, userAgent: String = "inbox-rpc", caFile: String? = nil,
    proxy: ProxySettings = .direct, library: String = HTTPBackend.libcurl,
    maxBytes: Int = PassDownloader.defaultMaxBytes
  ) {
    self.connectTimeout = min(connectTimeout, timeout)
    self.timeout = timeout
    self.userAgent = userAgent
    self.caFile = caFile
    self.proxy = proxy
    self.maxBytes = maxBytes
    sessions = CurlSession.Pool(library: library)
  }

  /// A downloaded pass file's bytes, not yet checked as an archive (`PassArchive`).
  public struct Download: Sendable {
    public var bytes: [UInt8]
    /// The URL the bytes came from, after redirects.
    public var url: String
    public var contentType: String
  }

  /// Downloads the pass at `url`; `received` hears the bytes so far and the length announced.
  public func download(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, received: @escaping (Int, Int?) -> Void
  ) throws(PassFailure) -> Download {
    var current = url
    for hop in 0...Self.maxRedirects {
      try Self.checkSecure(current, redirected: hop > 0)
      let request = HTTPTransfer.Request(
        url: current, headers: ["Accept: application/vnd.apple.pkpass, application/octet-stream"], body: nil,
        connectTimeout: connectTimeout, timeout: timeout, maxReplyBytes: maxBytes, userAgent: userAgent,
        caFile: caFile, proxy: proxy)
      let reply: HTTPTransfer.Reply
      do {
        reply = try sessions.withSession { session throws(HTTPTransfer.Failure) in
          try HTTPTransfer.perform(request, on: session, isCancelled: isCancelled, received: received)
        }
      } catch {
        switch error {
        case .cancelled: throw PassFailure(.cancelled, "the download was cancelled")
        case .tooLarge(let limit): throw PassFailure(.tooLarge, "the pass is larger than \(limit) bytes")
        case .transport(let reason): throw PassFailure(.unavailable, reason)
        }
      }
      if (300..<400).contains(reply.httpStatus), let next = reply.redirectURL {
        current = next
        continue
      }
      guard reply.httpStatus == 200 else {
        throw PassFailure(.httpStatus, "the server answered HTTP \(reply.httpStatus)", httpStatus: reply.httpStatus)
      }
      let type = Self.mediaType(reply.contentType)
      guard Self.mediaTypes.contains(type) else {
        let served = type.isEmpty ? "without a Content-Type" : "as \(type)"
        throw PassFailure(
          .notAPass, "the server sent it \(served), not as \(Self.mediaTypes.joined(separator: " or "))")
      }
      return Download(bytes: reply.body, url: current, contentType: type)
    }
    throw PassFailure(.unavailable, "more than \(Self.maxRedirects) redirects")
  }

  /// Refuses any URL but an `https` one without credentials.
  static func checkSecure(_ url: String, redirected: Bool) throws(PassFailure) {
    let parts: URLParts
    do { parts = try URLParts(url) } catch {
      throw PassFailure(.insecureURL, "the URL \(url) \(error.reason)")
    }
    guard parts.scheme == "https" else {
      let how = redirected ? "the server redirected to \(parts.scheme):" : "the pass URL uses \(parts.scheme):"
      throw PassFailure(.insecureURL, "\(how); a pass is downloaded over https only")
    }
    guard !parts.hasUserInfo else { throw PassFailure(.insecureURL, "the URL must not carry credentials") }
  }

  /// `application/vnd.apple.pkpass` from `Application/vnd.apple.pkpass; charset=binary`.
  static func mediaType(_ contentType: String?) -> String {
    let type = contentType?.split(separator: ";", maxSplits: 1).first ?? ""
    return String(type).trimmingWhitespace().lowercased()
  }
}

/// Why a pass could not be added, as the `didFailToAddWalletPassFor` delegate call would hear it.
public struct PassFailure: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Code: String, Sendable {
    /// The URL, or a redirect, is not `https` (or carries credentials).
    case insecureURL
    /// The server answered with a status other than 200.
    case httpStatus
    /// The pass is larger than the limit.
    case tooLarge
    /// What came is not a pass: its media type, or not a zip holding a pass.json object.
    case notAPass
    /// The server could not be reached, or the transfer broke off or timed out.
    case unavailable
    /// `$/cancelRequest`, or the end of input.
    case cancelled
    /// Downloads are off: a sandboxed replay, which acts for no one.
    case disabled
    /// The pass could not be kept in the cache directory.
    case cannotStore
  }

  public var code: Code
  public var reason: String
  public var httpStatus: Int?

  public init(_ code: Code, _ reason: String, httpStatus: Int? = nil) {
    self.code = code
    self.reason = reason
    self.httpStatus = httpStatus
  }

  public var description: String { reason }
}
