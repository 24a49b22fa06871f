import InboxCore
import InboxStore
import InboxSync

/// An inbox opened from the options: the composition root of every face (JSON-RPC, MCP, a test).
public struct OpenedInbox: Sendable {
  public let inbox: Inbox
  /// What applying the start-up backend settings did (an account change clears the inbox).
  public let startupOutcome: Synchronizer.ConfigureOutcome?
  /// The periodic sync the options ask for, not started yet.
  public let background: BackgroundSync?
  /// What reports other processes' commits to the store, not started yet.
  public let follower: StoreFollower
}

extension Inbox {
  /// Opens the inbox on `store`: builds the HTTP backend (`backend` replaces it, for tests) and the
  /// synchronizer, applies (and saves) the backend settings given at start-up, so a change of
  /// application or user id clears the inbox before the first request, and seeds the sample feed
  /// if asked.
  public static func open(options: InboxOptions, store: InboxStore, backend: (any Backend)? = nil) throws
    -> OpenedInbox
  {
    let clock = InboxClock(pinned: options.pinnedClock)
    var syncOptions = Synchronizer.Options(token: options.sync.token)
    syncOptions.minFetchInterval = options.sync.minFetchInterval
    syncOptions.clearTextBaseURL = options.sync.clearTextBaseURL
    syncOptions.version = ServerInfo.version
    syncOptions.messageLimit = options.messageLimit
    let built =
      backend
      ?? HTTPBackend(
        connectTimeout: 10, timeout: options.sync.timeout, userAgent: "\(ServerInfo.name)/\(ServerInfo.version)",
        caFile: options.sync.caFile, proxy: options.sync.proxy,
        library: options.sync.libcurl, maxReplyBytes: options.sync.maxReplyBytes)
    let transport: any Backend = options.sync.confinedTo.map { ConfinedBackend(built, listener: $0) } ?? built
    let sync = try Synchronizer(store: store, backend: transport, options: syncOptions, clock: { clock.now })
    let inbox = try Inbox(store: store, sync: sync, clock: clock, options: options)
    let outcome = options.sync.backend.isEmpty ? nil : try sync.configure(options.sync.backend)
    if options.sampleFeed { try SampleFeed.seedIfEmpty(inbox) }
    let follower = StoreFollower(inbox: inbox)
    if let signals = store.signals {
      sync.share(through: StoreSyncLease(signals: signals, follower: follower, patience: options.sync.leasePatience))
    }
    return OpenedInbox(
      inbox: inbox, startupOutcome: outcome,
      background: options.sync.interval.map { BackgroundSync(inbox: inbox, interval: $0) }, follower: follower)
  }
}
