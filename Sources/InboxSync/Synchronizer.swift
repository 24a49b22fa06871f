import InboxCore
import InboxStore
import JSON
import Posix
import Synchronization

/// Syncs the store with the Pushwoosh inbox backend: pushes queued status changes, fetches the inbox,
/// merges it, and pushes what the merge made sendable (SPEC.md §7).
///
/// One sync runs at a time; a second caller waits for the first (and can be cancelled while it
/// waits). Every step commits on its own, so a sync interrupted anywhere (an error, a cancel, a
/// `kill -9`) leaves a consistent store and loses nothing: a confirmed change has left the outbox, an
/// unconfirmed one is still in it, and the merge is one transaction.
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

  private struct State: Sendable {
    var settings: BackendSettings
    /// The `base_url` the backend asked for, used until the base URL or the application changes.
    var rotatedBaseURL: BackendURL?
  }

  private let state: Mutex<State>
  /// The inbox reply last merged, so a repeat of it on an unchanged store is not merged again.
  private let repeatedReply = RepeatedReply()
  /// Bumped by every account change; a merge fetched under another account is discarded.
  private let generation = Atomic<Int>(0)
  /// Held for the length of a sync.
  private let running = ConditionLock()
  /// Serialises configuration changes (never taken by a sync, so a change never waits for the network).
  private let configuring = ConditionLock()

  /// Loads the saved settings, generating and saving the hwid on first use.
  public init(store: InboxStore, backend: any Backend, options: Options, clock: @escaping @Sendable () -> Int64)
    throws
  {
    self.store = store
    self.backend = backend
    self.options = options
    self.clock = clock
    let saved = try store.setting(Self.settingsKey)
    let settings = BackendSettings(json: saved)
    if saved?["hwid"]?.stringValue == nil { try store.setSetting(Self.settingsKey, settings.json) }
    let rotated = try store.setting(Self.rotatedBaseURLKey)?.stringValue.flatMap { try? BackendURL($0) }
    state = Mutex(State(settings: settings, rotatedBaseURL: rotated))
  }

  // MARK: - Configuration

  /// The settings in force.
  public var settings: BackendSettings { state.withLock { $0.settings } }

  /// The base URL the next call goes to: the one the backend named, else the configured one, else the
  /// default for the application; nil while nothing is configured.
  public var effectiveBaseURL: BackendURL? {
    let (settings, rotated) = state.withLock { ($0.settings, $0.rotatedBaseURL) }
    return rotated ?? (try? settings.configuredBaseURL())
  }

  /// When the last fetch was merged (unix seconds), nil before the first.
  public func lastFetchAt() throws -> Int64? { try store.setting(Self.lastFetchKey)?.intValue }

  /// Applies `patch` and saves the result. A change of application or user id (from a configured
  /// application) clears the local inbox, as the SDKs do, and keeps the old account's queued changes,
  /// which are still sent as that account (`retireAccount`). A change of base URL or application
  /// forgets a `base_url` the backend had named.
  public func configure(_ patch: BackendSettings.Patch) throws -> ConfigureOutcome {
    configuring.lock()
    defer { configuring.unlock() }
    let (old, oldRotated) = state.withLock { ($0.settings, $0.rotatedBaseURL) }
    let new = old.applying(patch)
    var outcome = ConfigureOutcome(settings: new)
    guard new != old else { return outcome }
    var writes: [(String, JSONValue?)] = [(Self.settingsKey, new.json)]
    let forgetRotation = new.baseURL != old.baseURL || new.application != old.application
    if forgetRotation { writes.append((Self.rotatedBaseURLKey, nil)) }
    if old.application != nil, new.identity != old.identity {
      generation.add(1, ordering: .sequentiallyConsistent)
      writes.append((Self.lastFetchKey, nil))
      let oldURL = oldRotated ?? (try? old.configuredBaseURL())
      let (removed, dropped) = try store.retireAccount(
        as: Self.describe(old, baseURL: oldURL).jsonString, settings: writes, now: clock())
      outcome.accountChanged = true
      outcome.removed = removed
      outcome.dropped = dropped
    } else {
      try store.setSettings(writes)
    }
    state.withLock {
      $0.settings = new
      if forgetRotation { $0.rotatedBaseURL = nil }
    }
    return outcome
  }

  /// The account a retired outbox row belongs to, as stored in `outbox.account`.
  static func describe(_ settings: BackendSettings, baseURL: BackendURL?) -> JSONValue {
    var json = settings.json.objectValue ?? [:]
    json["baseUrl"] = baseURL.map { .string($0.string) } ?? .null
    return .object(json)
  }

  // MARK: - Sync

  /// Runs one sync: push, fetch (unless throttled), merge, push again. `respectBackoff` false (a
  /// host's explicit request) tries every queued change now; true (the periodic sync) waits for each
  /// change's retry time. Throws with what was done before the failure.
  public func sync(
    force: Bool = false, respectBackoff: Bool = false, events: Events = Events(),
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(SyncFailure) -> SyncReport {
    // One sync at a time; a waiting one stays cancellable.
    while !running.tryLock() {
      if isCancelled() { throw SyncFailure(.cancelled) }
      Clock.sleep(milliseconds: 10)
    }
    defer { running.unlock() }
    var report = SyncReport()
    do {
      try run(force: force, respectBackoff: respectBackoff, events: events, isCancelled: isCancelled, &report)
    } catch {
      report.pending = (try? store.pendingCount()) ?? report.pending
      throw SyncFailure(error, partial: report)
    }
    return report
  }

  private func run(
    force: Bool, respectBackoff: Bool, events: Events, isCancelled: @escaping @Sendable () -> Bool,
    _ report: inout SyncReport
  ) throws(SyncError) {
    func checkCancelled() throws(SyncError) { if isCancelled() { throw .cancelled } }
    let (settings, rotated) = state.withLock { ($0.settings, $0.rotatedBaseURL) }
    guard settings.application != nil else { throw .notConfigured(missing: ["application"]) }
    let baseURL: BackendURL
    if let rotated { baseURL = rotated } else { baseURL = try settings.configuredBaseURL() }
    let account = Account(settings: settings, baseURL: baseURL, isCurrent: true)
    let startGeneration = generation.load(ordering: .sequentiallyConsistent)
    let now = clock()
    var attempted = Set<Int64>()

    let first = try storeCall { try store.sendableOutbox(now: respectBackoff ? now : Int64.max, limit: 100_000) }
    try push(first, account, startGeneration, events: events, isCancelled: isCancelled, &attempted, &report)
    try checkCancelled()

    if !force, let last = try storeCall({ try lastFetchAt() }), now >= last, now - last < options.minFetchInterval {
      report.throttled = true
    } else {
      events.progress(SyncProgress(.fetch))
      let call = BackendCall(
        method: .getInboxMessages, baseURL: account.baseURL, request: account.commonFields(version: options.version),
        token: options.token, knownReply: repeatedReply.lastReply)
      let envelope = try backend.send(call, isCancelled: isCancelled)
      honourBaseURL(envelope.baseURL, account: account, generation: startGeneration, events: events)
      // A reply that repeats the last merged one is not read again unless the store changed since.
      let candidate = repeatedReply.candidate(body: envelope.body, now: now)
      let remote = candidate == nil ? try RemoteInbox.parse(envelope, now: now) : nil
      let warnings = candidate?.warnings ?? remote?.warnings ?? []
      let count = candidate?.messageCount ?? remote?.messages.count ?? 0
      if !warnings.isEmpty { events.warnings(warnings) }
      try checkCancelled()

      events.progress(SyncProgress(.merge, done: 0, total: count))
      let merged: (plan: MergePlan, merged: RepeatedReply.Merged?)? = try storeCall {
        try store.syncTransaction { transaction in
          guard generation.load(ordering: .sequentiallyConsistent) == startGeneration else { return nil }
          return try repeatedReply.merge(envelope, remote: remote, candidate: candidate, in: transaction, now: now) {
            try $0.setSetting(Self.lastFetchKey, .int(now))
          }
        }
      }
      if let merged = merged?.merged { repeatedReply.remember(merged) } else { repeatedReply.forget() }
      if let plan = merged?.plan {
        report.added = plan.added
        report.updated = plan.updated
        report.removed = plan.removed
        report.expired = plan.expired
        events.merged(plan)
        events.progress(SyncProgress(.merge, done: count, total: count))
      } else {
        events.log("the account changed during the sync; the inbox fetched for the old one was discarded")
      }

      // Changes the merge made sendable (push-only messages that got an order, re-sends).
      let second = try storeCall {
        try store.sendableOutbox(now: respectBackoff ? now : Int64.max, limit: 100_000)
      }.filter { !attempted.contains($0.seq) }
      if !second.isEmpty {
        try push(second, account, startGeneration, events: events, isCancelled: isCancelled, &attempted, &report)
      }
    }
    report.pending = try storeCall { try store.pendingCount() }
    events.progress(SyncProgress(.done))
  }

  /// Sends each change; a confirmed one leaves the outbox, a failed one is postponed by the retry
  /// policy. Stops at the first `.unavailable` (the backend is down: the rest would fail the same way)
  /// and after three failures in a row.
  private func push(
    _ entries: [OutboxEntry], _ current: Account, _ startGeneration: Int, events: Events,
    isCancelled: @escaping @Sendable () -> Bool,
    _ attempted: inout Set<Int64>, _ report: inout SyncReport
  ) throws(SyncError) {
    let total = entries.count
    events.progress(SyncProgress(.push, done: 0, total: total))
    var failuresInARow = 0
    sending: for (index, entry) in entries.enumerated() {
      if isCancelled() { throw .cancelled }
      attempted.insert(entry.seq)
      guard let order = entry.order else { continue }
      let account = entry.account.isEmpty ? current : Account(retired: entry.account)
      guard let account else {
        events.log("outbox change \(entry.seq) names an account that cannot be read; it stays queued")
        continue
      }
      var request = account.commonFields(version: options.version)
      request["inbox_code"] = .string(order)
      request["status"] = .int(entry.status.rawValue)
      if let hash = entry.hash { request["hash"] = .string(hash) }
      let call = BackendCall(method: .inboxStatus, baseURL: account.baseURL, request: request, token: options.token)
      do {
        let envelope = try backend.send(call, isCancelled: isCancelled)
        try storeCall { try store.confirm(entry) }
        report.pushed += 1
        failuresInARow = 0
        if account.isCurrent {
          honourBaseURL(envelope.baseURL, account: account, generation: startGeneration, events: events)
        }
      } catch {
        switch error {
        case .cancelled, .store: throw error
        default: break
        }
        let wait = options.retry.delay(afterFailures: entry.attempts + 1, random: options.random())
        let retryAt = clock() + Int64(wait.rounded(.up))
        try storeCall { try store.postpone(entry, until: retryAt, error: error.description) }
        report.failed += 1
        report.pushError = error
        failuresInARow += 1
        if case .unavailable = error { break sending }
        if failuresInARow >= 3 { break sending }
      }
      if (index + 1) % 50 == 0 || index + 1 == total {
        events.progress(SyncProgress(.push, done: index + 1, total: total))
      }
    }
  }

  /// Persists a `base_url` the backend named, when it is a URL we may use (https, or http to loopback);
  /// an unusable one is ignored with a note in the log.
  private func honourBaseURL(_ text: String?, account: Account, generation expected: Int, events: Events) {
    guard let text, !text.isEmpty else { return }
    let url: BackendURL
    do {
      url = try BackendURL(text)
    } catch {
      events.log("ignoring the base_url the backend sent: \(error.reason)")
      return
    }
    guard url != account.baseURL else { return }
    // A base_url named for an account that has since been replaced is not the new account's.
    guard generation.load(ordering: .sequentiallyConsistent) == expected else { return }
    do {
      try store.setSetting(Self.rotatedBaseURLKey, .string(url.string))
      state.withLock { $0.rotatedBaseURL = url }
      events.log("the backend moved this inbox to \(url.string)")
    } catch {
      events.log("cannot save the base_url the backend sent: \(error)")
    }
  }

  private func storeCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .store(StoreError(kind: .sqlite, message: "\(error)"))
    }
  }
}

/// Who a call is made as, and where it goes.
struct Account: Sendable {
  var settings: BackendSettings
  var baseURL: BackendURL
  /// The account in force (false: a retired one whose queued changes are still being sent).
  var isCurrent: Bool

  init(settings: BackendSettings, baseURL: BackendURL, isCurrent: Bool) {
    self.settings = settings
    self.baseURL = baseURL
    self.isCurrent = isCurrent
  }

  /// A retired account, from the description `Synchronizer.configure` stored.
  init?(retired description: String) {
    guard let json = try? JSONValue.parse(description), json["application"]?.stringValue != nil else { return nil }
    let settings = BackendSettings(json: json)
    guard let url = json["baseUrl"]?.stringValue.flatMap({ try? BackendURL($0) }) ?? (try? settings.configuredBaseURL())
    else { return nil }
    self.init(settings: settings, baseURL: url, isCurrent: false)
  }

  /// `application`, `hwid`, `userId` (the hwid when no user id is set), `v`, `device_type` (research §1.2).
  func commonFields(version: String) -> JSONObject {
    [
      "application": .string(settings.application ?? ""), "hwid": .string(settings.hwid),
      "userId": .string(settings.userID ?? settings.hwid), "v": .string(version),
      "device_type": .int(settings.deviceType),
    ]
  }
}
