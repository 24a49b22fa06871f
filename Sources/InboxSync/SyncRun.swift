import Dispatch
import InboxCore
import InboxStore
import JSON
import Posix

/// One sync run: push, fetch (unless throttled), merge, push again, then its outcome recorded, with
/// what it did so far in `report`. Every step commits on its own, so a run interrupted anywhere
/// leaves a consistent store.
///
/// Its writes do not wait for the store's write lock on a thread: each is a write job
/// (`InboxStore.attemptWrite`); one that comes back busy has done nothing and is kept, `step`
/// returns `.waitsForLock`, and the caller steps the run again when the lock may be free
/// (`wakeWhenLockMayBeFree`); the run goes on from that write. A write still busy once its
/// `Patience` has passed fails `busy`, as a request's does.
final class SyncRun: @unchecked Sendable {
  // Unchecked: stepped by one thread at a time; between steps (a wait for the lock) no thread holds
  // it.

  /// Where a step left the run.
  enum Ending {
    case waitsForLock
    case ended(Result<SyncReport, SyncFailure>)
  }

  private enum Stage {
    case start
    case push(Push)
    case fetch
    case merge(Fetched)
    case pushAgain
    case record(Result<SyncReport, SyncFailure>)
    case ended(Result<SyncReport, SyncFailure>)
  }

  /// A push under way: the changes to send, the next one, the failures in a row so far.
  private struct Push {
    let entries: [OutboxEntry]
    /// The push after the merge (of the changes it made sendable).
    let afterMerge: Bool
    var next = 0
    var failuresInARow = 0
    var stopped = false
    /// The `base_url` the backend named with the last confirmation, and for which account.
    var baseURLNamed: (text: String, account: Account)?
  }

  /// What the run began with.
  private struct Begun {
    let current: Account
    let generation: Int
    let now: Int64
    /// The run's calls share one backend timeout from here (`BackendCall.syncBegan`).
    let began = Clock.monotonicNanoseconds
  }

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
  private(set) var report = SyncReport()
  private var attempted = Set<Int64>()
  private let startedAt: Int64
  private var stage = Stage.start
  private var begun: Begun?
  /// The write that met the lock, made first when the run is stepped again.
  private var lockedOut: (() throws -> Void)?
  /// The patience of the write kept, from its first busy try, and the wait before its next.
  private let patience = Patience()
  private var wait: (@Sendable (_ resume: @escaping @Sendable () -> Void) -> Void)?

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
    startedAt = clock()
  }

  private var isCancelled: @Sendable () -> Bool { { [cancellation] in cancellation.isCancelled } }

  private func checkCancelled() throws(SyncError) { if cancellation.isCancelled { throw .cancelled } }

  /// Runs until the run ends or a write meets the lock.
  func step() -> Ending {
    while true {
      do {
        if let write = lockedOut {
          lockedOut = nil
          if case .ended = stage {} else { try checkCancelled() }
          guard try made(write) else { return .waitsForLock }
          continue
        }
        switch stage {
        case .start: try begin()
        case .push(let push): try pushNext(push)
        case .fetch: try fetch()
        case .merge(let fetched): try merge(fetched)
        case .pushAgain: try pushAgain()
        case .record(let result):
          stage = .ended(result)
          // A run that failed for the lock would only wait for it again.
          if case .failure(let failure) = result, case .store(let error) = failure.error, error.kind == .busy {
            continue
          }
          _ = try made { [self] in try record(result) }
        case .ended(let result):
          return .ended(result)
        }
        if lockedOut != nil { return .waitsForLock }
      } catch {
        // A failure to record the outcome does not change what the run did.
        if case .ended = stage { continue }
        report.pending = (try? store.pendingCount()) ?? report.pending
        stage = .record(.failure(SyncFailure(error, partial: report)))
      }
    }
  }

  /// Calls `resume` once the lock a kept write met may be free, at the latest when its patience ends.
  func wakeWhenLockMayBeFree(_ resume: @escaping @Sendable () -> Void) {
    wait?(resume)
  }

  /// Makes `write` without waiting for the store's write lock: true when made; false when it met
  /// the lock having done nothing (kept, to be made when the run is stepped again); `busy` once it
  /// has met it for the patience.
  private func made(_ write: @escaping () throws -> Void) throws(SyncError) -> Bool {
    let attempt = store.attemptWrite(write)
    switch attempt {
    case .done(let result):
      patience.reset()
      // A write that met the lock after another of it committed is not made again (`busy`).
      if case .failure(let error) = result { throw Self.syncError(error) }
      return true
    case .busy:
      guard let wait = patience.nextWake(after: attempt) else {
        patience.reset()
        throw .store(StoreError.lockHeldTooLong)
      }
      (self.wait, lockedOut) = (wait, write)
      return false
    }
  }

  private func begin() throws(SyncError) {
    let (settings, rotated) = account.current
    guard settings.application != nil else { throw .notConfigured(missing: ["application"]) }
    let baseURL: BackendURL
    if let rotated { baseURL = rotated } else { baseURL = try settings.configuredBaseURL() }
    let now = clock()
    begun = Begun(
      current: Account(settings: settings, baseURL: baseURL, isCurrent: true), generation: account.generation, now: now)
    startPush(try sendable(now), afterMerge: false)
  }

  private func startPush(_ entries: [OutboxEntry], afterMerge: Bool) {
    events.progress(SyncProgress(.push, done: 0, total: entries.count))
    stage = .push(Push(entries: entries, afterMerge: afterMerge))
  }

  private func fetch() throws(SyncError) {
    guard let begun else { return }
    try checkCancelled()
    let last = try Self.storeCall { try store.setting(Synchronizer.lastFetchKey)?.intValue }
    if !force, let last, begun.now >= last, begun.now - last < options.minFetchInterval {
      report.throttled = true
      return finish()
    }
    events.progress(SyncProgress(.fetch))
    let call = BackendCall(
      method: .getInboxMessages, baseURL: begun.current.baseURL,
      request: begun.current.commonFields(version: options.version), token: options.token,
      knownReply: repeatedReply.lastReply, syncBegan: begun.began)
    let fetched = Fetched(try backend.send(call, isCancelled: isCancelled))
    stage = .merge(fetched)
    _ = try made { [account, events] in
      try account.honourBaseURL(
        fetched.envelope?.baseURL, account: begun.current, generation: begun.generation, log: events.log)
    }
  }

  /// Changes the merge made sendable (push-only messages that got an order, re-sends).
  private func pushAgain() throws(SyncError) {
    guard let begun else { return }
    let second = try sendable(begun.now).filter { !attempted.contains($0.seq) }
    if second.isEmpty { finish() } else { startPush(second, afterMerge: true) }
  }

  /// The run has done its work: its outcome is recorded next.
  private func finish() {
    report.pending = (try? store.pendingCount()) ?? report.pending
    events.progress(SyncProgress(.done))
    stage = .record(.success(report))
  }

  /// Records what the run did, for another process whose run waited for this one (`SyncOutcome`).
  private func record(_ result: Result<SyncReport, SyncFailure>) throws {
    let report = (try? result.get()) ?? report
    let succeeded = (try? result.get()) != nil
    let ok = succeeded && report.failed == 0 && report.pushError == nil
    var outcome = SyncOutcome(
      run: 0, by: store.changeOrigin, at: startedAt, fetched: succeeded && !report.throttled, ok: ok,
      report: report)
    // Bookkeeping no merge reads: the memo of the last merge is carried over it, so the next sync of
    // an unchanged inbox is still recognised as a repeat.
    try store.syncTransaction { transaction in
      try repeatedReply.carrying(over: transaction) { transaction in
        outcome.run = (SyncOutcome(json: try transaction.setting(SyncOutcome.key))?.run ?? 0) + 1
        try transaction.setSetting(SyncOutcome.key, outcome.json)
      }
    }
  }

  private func sendable(_ now: Int64) throws(SyncError) -> [OutboxEntry] {
    try Self.storeCall { try store.sendableOutbox(now: respectBackoff ? now : Int64.max, limit: 100_000) }
  }

  /// Merges the fetched inbox, one message at a time, in one transaction; the reply is let go of
  /// once merged or failed (`ReplyRelease`), not while the merge waits for the lock.
  private func merge(_ fetched: Fetched) throws(SyncError) {
    guard let begun else { return }
    stage = .pushAgain
    do {
      guard try made({ [self] in try merge(fetched.envelope, begun) }) else { return }
    } catch {
      fetched.release()
      throw error
    }
    fetched.release()
  }

  private func merge(_ envelope: BackendEnvelope?, _ begun: Begun) throws {
    guard let envelope else { return }
    let now = begun.now
    // A reply that repeats the last merged one is not read again unless the store changed since.
    let candidate = repeatedReply.candidate(body: envelope.body, now: now)
    let count = candidate?.messageCount ?? envelope.messageItems?.count ?? 0
    try checkCancelled()

    events.progress(SyncProgress(.merge, done: 0, total: count))
    let merged: (plan: MergePlan, warnings: [Warning], merged: RepeatedReply.Merged?)? =
      try store.syncTransaction { [account, repeatedReply, options, isCancelled] transaction in
        guard account.generation == begun.generation else { return nil }
        return try repeatedReply.merge(
          envelope, candidate: candidate, in: transaction, now: now, limit: options.messageLimit,
          isCancelled: isCancelled
        ) {
          try $0.setSetting(Synchronizer.lastFetchKey, .int(now))
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

  /// Sends the next change; a confirmed one leaves the outbox, a failed one is postponed by the
  /// retry policy. The push stops at the first `.unavailable` (the backend is down: the rest would
  /// fail the same way) and after three failures in a row. A `base_url` the backend named with a
  /// confirmation is saved before the next change is sent.
  private func pushNext(_ push: Push) throws(SyncError) {
    guard let begun else { return }
    var push = push
    if let named = push.baseURLNamed {
      push.baseURLNamed = nil
      stage = .push(push)
      _ = try made { [account, events] in
        try account.honourBaseURL(named.text, account: named.account, generation: begun.generation, log: events.log)
      }
      return
    }
    guard !push.stopped, push.next < push.entries.count else {
      if push.afterMerge { finish() } else { stage = .fetch }
      return
    }
    try checkCancelled()
    let index = push.next
    let entry = push.entries[index]
    push.next += 1
    stage = .push(push)
    attempted.insert(entry.seq)
    guard let order = entry.order else { return }
    let account =
      entry.account.isEmpty
      ? begun.current : Account(retired: entry.account, clearText: options.clearTextBaseURL)
    guard let account else {
      events.log("outbox change \(entry.seq) names an account that cannot be read; it stays queued")
      return
    }
    var request = account.commonFields(version: options.version)
    request["inbox_code"] = .string(order)
    request["status"] = .int(entry.status.rawValue)
    if let hash = entry.hash { request["hash"] = .string(hash) }
    let call = BackendCall(
      method: .inboxStatus, baseURL: account.baseURL, request: request, token: options.token, syncBegan: begun.began)
    let write: () throws -> Void
    do {
      let envelope = try backend.send(call, isCancelled: isCancelled)
      push.failuresInARow = 0
      if account.isCurrent, let named = envelope.baseURL { push.baseURLNamed = (named, account) }
      write = { [self] in
        try store.confirm(entry)
        report.pushed += 1
      }
    } catch {
      switch error {
      case .cancelled, .store: throw error
      default: break
      }
      let wait = options.retry.delay(afterFailures: entry.attempts + 1, random: options.random())
      let retryAt = clock() + Int64(wait.rounded(.up))
      push.failuresInARow += 1
      if case .unavailable = error { push.stopped = true }
      if push.failuresInARow >= 3 { push.stopped = true }
      write = { [self] in
        try store.postpone(entry, until: retryAt, error: error.description)
        report.failed += 1
        report.pushError = error
      }
    }
    if !push.stopped, (index + 1) % 50 == 0 || index + 1 == push.entries.count {
      events.progress(SyncProgress(.push, done: index + 1, total: push.entries.count))
    }
    stage = .push(push)
    _ = try made(write)
  }

  static func storeCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
    do {
      return try body()
    } catch {
      throw syncError(error)
    }
  }

  /// What a store call's error is to a sync.
  private static func syncError(_ error: any Error) -> SyncError {
    switch error {
    case let error as StoreError: .store(error)
    case let error as SyncError: error
    default: .store(StoreError(kind: .sqlite, message: "\(error)"))
    }
  }
}

/// A fetched reply until it is merged: then let go of on a background queue (`ReplyRelease`).
private final class Fetched: @unchecked Sendable {
  // Unchecked: used by the run's one thread at a time.
  private(set) var envelope: BackendEnvelope?

  init(_ envelope: BackendEnvelope) { self.envelope = envelope }

  func release() {
    let last = envelope
    envelope = nil
    ReplyRelease.later(consume last)
  }
}
