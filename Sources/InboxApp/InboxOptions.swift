import InboxCore
import InboxStore
import InboxSync

/// What an inbox is opened with (`Inbox.open`): the executable's flags, read by no face.
public struct InboxOptions: Sendable {
  /// Seeds an empty store with the sample feed kept in the repo (every card kind, a pinned message,
  /// buttons of each action, a few degradations).
  public var sampleFeed = false
  /// Pins the clock (unix seconds) from the start, before the sample feed is seeded: for tests
  /// and recorded examples that must repeat exactly.
  public var pinnedClock: Int64?
  /// How the server reaches the inbox backend.
  public var sync = SyncOptions()
  /// The largest payload one message may have (`--max-message-bytes`), on every way in.
  public var messageLimit = MessageSizeLimit.standard
  /// The largest reply a face sends (`--max-reply-bytes`); a feed page holds cards of at most half
  /// of it (less a little for the rest of the reply), so it fits even quoted as MCP text.
  public var maxReplyBytes = 16 * 1024 * 1024

  /// Where wallet passes are downloaded to, and how large one may be.
  public var passes = PassOptions()

  /// The bytes of cards one page may hold.
  public var maxPageBytes: Int { max(maxReplyBytes / 2 - 4096, 1024) }

  public init() {}
}

/// Sync settings from the command line and the environment.
public struct SyncOptions: Sendable {
  /// Backend settings given at start-up; applied over the ones saved with the store (and saved).
  public var backend = BackendSettings.Patch()
  /// The http base URL the command line or environment gave: the only listener (host and port) the
  /// token is sent to in clear (`config.set` cannot name another; one read from the store is dropped).
  public var clearTextBaseURL: BackendURL? {
    guard case .some(.some(let url)) = backend.baseURL, url.isClearText else { return nil }
    return url
  }
  /// The API token (from `INBOX_RPC_API_TOKEN` or `--token-file`; never from the command line).
  public var token: APIToken?
  /// Where the token came from, for `config.get`: `environment` or `file`.
  public var tokenSource: String?
  /// Seconds allowed for one backend call (`--backend-timeout`); connecting gets at most 10 of them.
  public var timeout: Double = 30
  /// A PEM file of the CAs to trust for https to the backend instead of the system's store
  /// (`--backend-ca-file`); nil: the system's.
  public var caFile: String?
  /// The proxy https calls to the backend tunnel through (from `https_proxy` and `no_proxy`).
  public var proxy = ProxySettings.direct
  /// The libcurl `dlopen` loads for backend calls (`INBOX_RPC_LIBCURL`, for a test that hides it).
  public var libcurl = HTTPBackend.libcurl
  /// Seconds between background syncs (`--sync-interval`); nil: no background sync.
  public var interval: Int?
  /// Seconds a sync waits for another process's with no sign of life from it before it runs
  /// without it (`--sync-lease-patience`).
  public var leasePatience = 15.0
  /// Seconds between two fetches unless forced (`--sync-min-interval`).
  public var minFetchInterval: Int64 = 10
  /// The longest inbox reply read, decoded (`--max-sync-reply-bytes`).
  public var maxReplyBytes = BackendEnvelope.maxReplyBytes
  /// Set in `replay`'s sandbox: every backend call goes to this one loopback listener, without the
  /// token (`ConfinedBackend`); `.some(nil)`: no call leaves the process. nil: not sandboxed.
  public var confinedTo: BackendURL??

  public init() {}
}

/// Wallet pass downloads (`wallet.download`).
public struct PassOptions: Sendable {
  /// The directory passes are kept in (`PassCache.defaultDirectory`); nil: downloads are refused.
  public var cacheDirectory: String?
  /// The largest pass downloaded.
  public var maxBytes = PassDownloader.defaultMaxBytes

  public init() {}
}
