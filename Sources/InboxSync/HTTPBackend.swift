import Posix

/// The real backend: `POST {base}/{method}` over HTTP(S) with `HTTPTransfer`, on libcurl
/// (docs/sync.md#the-backend-contract).
///
/// Headers: `Content-Type: application/json; charset=utf-8`, `Accept: application/json`, and
/// `Authorization: Token <token>` when a token is configured. Failures map onto `SyncError`:
/// connect failures, timeouts, a connection closed mid-body and a libcurl that cannot be loaded are
/// `.unavailable`; every HTTP reply goes through `BackendEnvelope.decode`. libcurl is loaded on the
/// first call, and the connection of one call is kept for the next.
public struct HTTPBackend: Backend {
  /// Seconds allowed to open the connection (TCP and TLS).
  public var connectTimeout: Double
  /// Seconds allowed for a whole call, connection included, and for all the calls of one sync
  /// together (`BackendCall.syncBegan`).
  public var timeout: Double
  public var userAgent: String
  /// A PEM file of the CAs to trust for https instead of the system's store (a private CA); nil:
  /// the system's.
  public var caFile: String?
  /// The proxy https calls tunnel through (`https_proxy`, `no_proxy`); `.direct` by default.
  public var proxy: ProxySettings
  /// The longest reply read (`BackendEnvelope.maxReplyBytes` by default).
  public var maxReplyBytes: Int
  private let sessions: CurlSession.Pool

  /// libcurl's file name, as `dlopen` looks it up.
  public static let libcurl = "libcurl.so.4"

  /// A backend with the given timeouts (the Android SDK's are 30 s to connect and 60 s to read);
  /// `library` names the libcurl to load.
  public init(
    connectTimeout: Double = 10, timeout: Double = 30, userAgent: String = "inbox-rpc", caFile: String? = nil,
    proxy: ProxySettings = .direct, library: String = HTTPBackend.libcurl,
    maxReplyBytes: Int = BackendEnvelope.maxReplyBytes
  ) {
    self.maxReplyBytes = maxReplyBytes
    sessions = CurlSession.Pool(library: library)
    self.connectTimeout = min(connectTimeout, timeout)
    self.timeout = timeout
    self.userAgent = userAgent
    self.caFile = caFile
    self.proxy = proxy
  }

  public func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError)
    -> BackendEnvelope
  {
    let timeLeft = timeLeft(of: call)
    guard timeLeft > 0 else {
      throw .unavailable(
        method: call.method.rawValue,
        reason: "not sent: the sync's \(TransferOutcome.seconds(timeout)) s (--backend-timeout) ran out")
    }
    var headers = ["Content-Type: application/json; charset=utf-8", "Accept: application/json"]
    if let token = call.token { headers.append("Authorization: Token \(token.secret)") }
    let request = HTTPTransfer.Request(
      url: call.baseURL.endpoint(call.method.rawValue), headers: headers, body: call.body,
      connectTimeout: min(connectTimeout, timeLeft), timeout: timeLeft, maxReplyBytes: maxReplyBytes,
      userAgent: userAgent, caFile: caFile, proxy: proxy)
    var reply: HTTPTransfer.Reply
    do {
      reply = try sessions.withSession { session throws(HTTPTransfer.Failure) in
        try HTTPTransfer.perform(request, on: session, isCancelled: isCancelled)
      }
    } catch {
      switch error {
      case .cancelled: throw .cancelled
      case .transport(let reason): throw .unavailable(method: call.method.rawValue, reason: reason)
      case .tooLarge(let limit):
        throw .malformedReply(
          method: call.method.rawValue, path: "$",
          reason: "the reply is larger than \(limit) bytes (--max-sync-reply-bytes)")
      }
    }
    if let known = call.knownReply, let repeated = known.repeated(httpStatus: reply.httpStatus, body: reply.body) {
      return repeated
    }
    // Handed over, not copied: the body is freed as soon as it is parsed.
    let body = reply.body
    reply.body = []
    return try BackendEnvelope.decode(
      method: call.method, httpStatus: reply.httpStatus, body: consume body, location: reply.redirectURL,
      isCancelled: isCancelled)
  }

  /// Seconds `call` may take: the timeout, or what the calls of its sync before it left of it.
  private func timeLeft(of call: BackendCall) -> Double {
    guard let began = call.syncBegan else { return timeout }
    let spent = Double(Clock.monotonicNanoseconds &- began) / 1e9
    return timeout - spent
  }
}
