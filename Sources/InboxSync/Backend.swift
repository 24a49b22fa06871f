import JSON

/// The two calls of the Pushwoosh inbox backend (docs/sync.md#the-backend-contract), by their wire names.
public enum BackendMethod: String, Sendable, Hashable, CaseIterable {
  /// `POST {base}/getInboxMessages`: the whole inbox of the user (the mobile SDKs never page).
  case getInboxMessages
  /// `POST {base}/inboxStatus`: one status change (`inbox_code`, `status`, `hash`).
  case inboxStatus
}

/// One call to the backend: where, as whom, and the members of `{"request": {...}}`.
public struct BackendCall: Sendable, Hashable {
  public var method: BackendMethod
  public var baseURL: BackendURL
  /// The members of the request object, the common fields (`application`, `hwid`, ...) included.
  public var request: JSONObject
  /// Sent as `Authorization: Token <token>`; the header is left out when there is none.
  public var token: APIToken?
  /// A reply read before (`RepeatedReply.lastReply`): an HTTP 200 reply with exactly its body is that
  /// reply again, returned without parsing it (`BackendEnvelope.isRepeat`).
  public var knownReply: BackendEnvelope?
  /// When the sync this call is part of began (`Clock.monotonicNanoseconds`): a sync's calls share
  /// one timeout, so each gets only what is left of it (docs/sync.md#what-a-sync-does). Nil: a call alone.
  public var syncBegan: UInt64?

  public init(
    method: BackendMethod, baseURL: BackendURL, request: JSONObject, token: APIToken?,
    knownReply: BackendEnvelope? = nil, syncBegan: UInt64? = nil
  ) {
    self.method = method
    self.baseURL = baseURL
    self.request = request
    self.token = token
    self.knownReply = knownReply
    self.syncBegan = syncBegan
  }

  /// The request body, `{"request": {...}}`, as every SDK wraps it (docs/sync.md#the-backend-contract).
  public var body: [UInt8] { JSONValue.object(["request": .object(request)]).serialized() }
}

/// A transport to the backend: sends one call and returns the reply's envelope, or a `SyncError`.
///
/// `HTTPBackend` is the real one (libcurl). Tests script replies with a fake. Implementations check
/// `isCancelled` while they wait and give up promptly with `.cancelled` once it returns true.
public protocol Backend: Sendable {
  func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError) -> BackendEnvelope
}

/// The Pushwoosh API token, kept out of every description so it cannot reach a log line or an error.
public struct APIToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The secret itself; read it only to build the `Authorization` header.
  public let secret: String

  /// A token from its text, trimmed; nil when nothing is left.
  public init?(_ text: String) {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    secret = trimmed
  }

  public var description: String { "<API token>" }
  public var debugDescription: String { "<API token>" }
}
