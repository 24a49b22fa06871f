import InboxCore
import InboxStore
import JSON
import Posix

/// One sync run: push, fetch (unless throttled), merge, push again, with what it did so far in
/// `report`. Every step commits on its own, so a run interrupted anywhere leaves a consistent store.
struct SyncRun {
  let store: InboxStore
  let backend: any Backend
  let options: Synchronizer.Options
  let account: SyncAccount
  let events: Synchronizer.Events
  let cancellation: any Cancellable
  let clock: @Sendable () -> Int64
  let force: Bool
  /// Wait for each queued change's retry time (the periodic sync) rather than try them all now.
  let respectBackoff: Bool
  /// The last merged reply, kept across runs by the `Synchronizer`.
  let repeatedReply: RepeatedReply
  var report = SyncReport()
  private var attempted = Set<Int64>()

  init(
    store: InboxStore, backend: any Backend, options: Synchronizer.Options, account: SyncAccount,
    events: Synchronizer.Events, cancellation: any Cancellable, clock: @escaping @Sendable () -> Int64, force: Bool,
    respectBackoff: Bool, repeatedReply: RepeatedReply
  ) {
    self.store = store
    self.backend = backend
    self.options = options
    self.account = account
    self.events = events
    self.cancellation = cancellation
    self.clock = clock
    self.force = force
    self.respectBackoff = respectBackoff
    self.repeatedReply = repeatedReply
  }

  private var isCancelled: @Sendable () -> Bool { { [cancellation] in cancellation.isCancelled } }

  private func checkCancelled() throws(SyncError) { if cancellation.isCancelled { throw .cancelled } }

  mutating func run() throws(SyncError) {
    let (settings, rotated) = account.current
    guard settings.application != nil else { throw .notConfigured(missing: ["application"]) }
    let baseURL: BackendURL
    if let rotated { baseURL = rotated } else { baseURL = try settings.configuredBaseURL() }
    let current = Account(settings: settings, baseURL: baseURL, isCurrent: true)
    let generation = account.generation
    let now = clock()

    try push(try sendable(now), current, generation)
    try checkCancelled()

    let last = try Self.storeCall { try store.setting(Synchronizer.lastFetchKey)?.intValue }
    if !force, let last, now >= last, now - last < options.minFetchInterval {
      report.throttled = true
    } else {
      try fetchAndMerge(current, generation, now: now)
      // Changes the merge made sendable (push-only messages that got an order, re-sends).
      let second = try sendable(now).filter { !attempted.contains($0.seq) }
      if !second.isEmpty { try push(second, current, generation) }
    }
    report.pending = try Self.storeCall { try store.pendingCount() }
    events.progress(SyncProgress(.done))
  }

  private func sendable(_ now: Int64) throws(SyncError) -> [OutboxEntry] {
    try Self.storeCall { try store.sendableOutbox(now: respectBackoff ? now : Int64.max, limit: 100_000) }
  }

  private mutating func fetchAndMerge(_ current: Account, _ generation: Int, now: Int64) throws(SyncError) {
    events.progress(SyncProgress(.fetch))
    let call = BackendCall(
      method: .getInboxMessages, baseURL: current.baseURL, request: current.commonFields(version: options.version),
      token: options.token, knownReply: repeatedReply.lastReply)
    let envelope = try backend.send(call, isCancelled: isCancelled)
    // The last reference to the reply goes to `ReplyRelease` on every way out.
    do {
      try merge(envelope, current, generation, now: now)
    } catch {
      ReplyRelease.later(consume envelope)
      throw error
    }
    ReplyRelease.later(consume envelope)
  }

  /// Reads the fetched inbox and merges it, one message at a time, in one transaction.
  private mutating func merge(_ envelope: BackendEnvelope, _ current: Account, _ generation: Int, now: Int64)
    throws(SyncError)
  {
    account.honourBaseURL(envelope.baseURL, account: current, generation: generation, log: events.log)
    // A reply that repeats the last merged one is not read again unless the store changed since.
    let candidate = repeatedReply.candidate(body: envelope.body, now: now)
    let count = candidate?.messageCount ?? envelope.messageItems?.count ?? 0
    try checkCancelled()

    events.progress(SyncProgress(.merge, done: 0, total: count))
    let merged: (plan: MergePlan, warnings: [Warning], merged: RepeatedReply.Merged?)? = try Self.storeCall {
      [account, repeatedReply] in
      try store.syncTransaction { transaction in
        guard account.generation == generation else { return nil }
        return try repeatedReply.merge(
          envelope, candidate: candidate, in: transaction, now: now, limit: options.messageLimit,
          isCancelled: isCancelled
        ) {
          try $0.setSetting(Synchronizer.lastFetchKey, .int(now))
        }
      }
    }
    if let memo = merged?.merged { repeatedReply.remember(memo) } else { repeatedReply.forget() }
    guard let merged else {
      events.log("the account changed during the sync; the inbox fetched for the old one was discarded")
      return
    }
    if !merged.warnings.isEmpty { events.warnings(merged.warnings) }
    let plan = merged.plan
    report.added = plan.added
    report.updated = plan.updated
    report.removed = plan.removed
    report.expired = plan.expired
    events.merged(plan)
    events.progress(SyncProgress(.merge, done: count, total: count))
  }

  /// Sends each change; a confirmed one leaves the outbox, a failed one is postponed by the retry
  /// policy. Stops at the first `.unavailable` (the backend is down: the rest would fail the same way)
  /// and after three failures in a row.
  private mutating func push(_ entries: [OutboxEntry], _ current: Account, _ generation: Int) throws(SyncError) {
    let total = entries.count
    events.progress(SyncProgress(.push, done: 0, total: total))
    var failuresInARow = 0
    sending: for (index, entry) in entries.enumerated() {
      try checkCancelled()
      attempted.insert(entry.seq)
      guard let order = entry.order else { continue }
      let account =
        entry.account.isEmpty ? current : Account(retired: entry.account, clearText: options.clearTextBaseURL)
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
        try Self.storeCall { try store.confirm(entry) }
        report.pushed += 1
        failuresInARow = 0
        if account.isCurrent {
          self.account.honourBaseURL(envelope.baseURL, account: account, generation: generation, log: events.log)
        }
      } catch {
        switch error {
        case .cancelled, .store: throw error
        default: break
        }
        let wait = options.retry.delay(afterFailures: entry.attempts + 1, random: options.random())
        let retryAt = clock() + Int64(wait.rounded(.up))
        try Self.storeCall { try store.postpone(entry, until: retryAt, error: error.description) }
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

  static func storeCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw .store(error)
    } catch let error as SyncError {
      throw error
    } catch {
      throw .store(StoreError(kind: .sqlite, message: "\(error)"))
    }
  }
}
