import Dispatch
import InboxCore
import InboxStore
import JSON
import Posix

/// Syncs the store with the Pushwoosh inbox backend: pushes queued status changes, fetches the inbox,
/// merges it, and pushes what the merge made sendable (docs/sync.md#what-a-sync-does).
///
/// Two parts: the account settings (`SyncAccount`) and one sync run (`SyncRun`). One run at a time,
/// on a queue of their own (`SyncQueue`): a sync asked for meanwhile is queued, holding no thread,
/// and can be cancelled while it waits. Every step
/// commits on its own, so a sync interrupted anywhere (an error, a cancel, a `kill -9`) leaves a
/// consistent store and loses nothing: a confirmed change has left the outbox, an unconfirmed one is
/// still in it, and the merge is one transaction.
public final class Synchronizer: Sendable {
  /// Fixed choices of a server run.
  public struct Options: Sendable {
    /// Sent as `Authorization: Token <token>`; nil sends no such header.
    public var token: APIToken?
    /// Seconds that must pass between two fetches unless a sync is forced, as the SDKs throttle
    /// (10 s on iOS, 60 s on Android). Default 10.
    public var minFetchInterval: Int64 = 10
    public var retry = RetryPolicy()
    /// Sent as `v`.
    public var version = "0.1.0"
    /// The largest payload one message may have; a fetched message past it is skipped with a warning.
    public var messageLimit = MessageSizeLimit.standard
    /// The http base URL the command line or environment gave: a setting read from the store may name
    /// an http URL only to its host and port (`BackendURL.trusted`); nil: none.
    public var clearTextBaseURL: BackendURL?
    /// Uniform in [0, 1): the retry jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    public init(token: APIToken? = nil) { self.token = token }
  }

  /// Callbacks a sync reports through; each may be called from the syncing thread.
  public struct Events: Sendable {
    public var progress: @Sendable (SyncProgress) -> Void
    /// Called once the merge has committed, with what it changed.
    public var merged: @Sendable (MergePlan) -> Void
    /// What the fetch skipped or defaulted.
    public var warnings: @Sendable ([Warning]) -> Void
    /// Notes for the log (never carrying the token).
    public var log: @Sendable (String) -> Void

    public init(
      progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
      merged: @escaping @Sendable (MergePlan) -> Void = { _ in },
      warnings: @escaping @Sendable ([Warning]) -> Void = { _ in },
      log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
      self.progress = progress
      self.merged = merged
      self.warnings = warnings
      self.log = log
    }
  }

  /// What `configure` did.
  public struct ConfigureOutcome: Sendable, Equatable {
    public var settings: BackendSettings
    /// The application or user id changed: the local inbox was cleared.
    public var accountChanged = false
    /// Ids of the visible messages the change removed.
    public var removed: [String] = []
    /// Queued changes that could never be sent (their message had no `order` yet) and were dropped.
    public var dropped = 0
  }

  public static let settingsKey = "backend"
  public static let rotatedBaseURLKey = "sync.baseUrl"
  public static let lastFetchKey = "sync.lastFetchAt"

  public let store: InboxStore
  public let backend: any Backend
  public let options: Options
  private let clock: @Sendable () -> Int64
  private let account: SyncAccount
  private let runs = SyncQueue()
  /// The inbox reply last merged, so a repeat of it on an unchanged store is not merged again.
  private let repeatedReply = RepeatedReply()
  /// Where a run waiting for the store's write lock goes on.
  private let resumes = DispatchQueue(label: "inbox-rpc.sync-resume")

  /// Loads the saved settings, generating and saving the hwid on first use.
  public init(store: InboxStore, backend: any Backend, options: Options, clock: @escaping @Sendable () -> Int64)
    throws
  {
    self.store = store
    self.backend = backend
    self.options = options
    self.clock = clock
    account = try SyncAccount(store: store, clearText: options.clearTextBaseURL)
  }

  // MARK: - Configuration

  /// The settings in force.
  public var settings: BackendSettings { account.settings }

  /// The base URL the next call goes to: the one the backend named, else the configured one, else the
  /// default for the application; nil while nothing is configured.
  public var effectiveBaseURL: BackendURL? { account.effectiveBaseURL }

  /// When the last fetch was merged (unix seconds), nil before the first.
  public func lastFetchAt() throws -> Int64? { try store.setting(Self.lastFetchKey)?.intValue }

  /// Applies `patch` and saves the result (see `SyncAccount.configure`): a change of application or
  /// user id clears the local inbox; the old account's queued changes are still sent as that account.
  public func configure(_ patch: BackendSettings.Patch) throws -> ConfigureOutcome {
    try account.configure(patch, now: clock())
  }

  /// Forgets the last merged reply: another process changed the store since that merge.
  public func forgetLastMerge() { repeatedReply.forget() }

  // MARK: - Sync

  /// Runs one sync: push, fetch (unless throttled), merge, push again. `respectBackoff` false (a
  /// host's explicit request) tries every queued change now; true (the periodic sync) waits for each
  /// change's retry time. Queued behind the syncs before it without holding the calling thread:
  /// `completion` gets the outcome (a failure says what was done before it) on the sync queue's
  /// thread, or `.cancelled` at once when cancelled first.
  public func sync(
    force: Bool = false, respectBackoff: Bool = false, events: Events = Events(),
    cancellation: any Cancellable = CancellationFlag(),
    completion: @escaping @Sendable (Result<SyncReport, SyncFailure>) -> Void
  ) {
    runs.enqueue(
      cancellation: cancellation, waiting: { events.progress(SyncProgress(.wait)) },
      answering: turn(force: force, respectBackoff: respectBackoff, events: events, cancellation: cancellation),
      completion)
  }

  /// One sync's turn, from the outcome stored when it was asked for: a turn that waited for
  /// another process's run reports that run when it covers this one, and runs otherwise.
  private func turn(force: Bool, respectBackoff: Bool, events: Events, cancellation: any Cancellable)
    -> @Sendable (Bool, @escaping @Sendable (Result<SyncReport, SyncFailure>) -> Void) -> Void
  {
    let since = lastOutcome()?.run ?? 0
    return { waited, done in
      if waited, let covered = self.covering(since: since, force: force, respectBackoff: respectBackoff) {
        events.log("another process's sync ran meanwhile; its outcome stands for this one")
        return done(.success(covered))
      }
      self.runNow(force: force, respectBackoff: respectBackoff, events: events, cancellation: cancellation, done: done)
    }
  }

  /// Makes every later run take `gate`'s lease first: syncs of all the processes on the store
  /// run one at a time, and one that waited for another's may report it instead of running.
  public func share(through gate: any SyncGate) { runs.share(through: gate) }

  /// The last run's outcome on this store, by any process.
  public func lastOutcome() -> SyncOutcome? { SyncOutcome(json: try? store.setting(SyncOutcome.key)) }

  /// True when another process fetched less than `seconds` ago, without a failure.
  public func fetchedElsewhere(within seconds: Int64) -> Bool {
    guard let last = lastOutcome(), last.by != store.changeOrigin, last.fetched, last.ok else { return false }
    let now = clock()
    return now >= last.at && now - last.at < seconds
  }

  /// The outcome of a run another process finished after `since` that did what this one would:
  /// it succeeded, fetched unless this one would not have to, and left nothing this one would push.
  private func covering(since: Int64, force: Bool, respectBackoff: Bool) -> SyncReport? {
    guard let last = lastOutcome(), last.run > since, last.by != store.changeOrigin, last.ok,
      last.fetched || !force,
      (try? store.sendableOutbox(now: respectBackoff ? clock() : Int64.max, limit: 1).isEmpty) == true
    else { return nil }
    return last.report
  }

  /// Runs a sync, `done` getting its outcome. A run whose write meets the store's write lock holds
  /// no thread: it is stepped again, on `resumes`, when the lock may be free.
  private func runNow(
    force: Bool, respectBackoff: Bool, events: Events, cancellation: any Cancellable,
    done: @escaping @Sendable (Result<SyncReport, SyncFailure>) -> Void
  ) {
    let run = SyncRun(
      store: store, backend: backend, options: options, account: account, events: events,
      cancellation: cancellation, clock: clock, force: force, respectBackoff: respectBackoff,
      repeatedReply: repeatedReply)
    step(run, done: done)
  }

  private func step(_ run: SyncRun, done: @escaping @Sendable (Result<SyncReport, SyncFailure>) -> Void) {
    switch run.step() {
    case .ended(let result): done(result)
    case .waitsForLock:
      run.wakeWhenLockMayBeFree { [self] in resumes.async { [self] in step(run, done: done) } }
    }
  }
}
