import Dispatch
import InboxSync
import Posix
import Synchronization

/// The periodic sync (`--sync-interval`): every interval, a sync that honours the fetch throttle and
/// each queued change's retry time, so a backend that is down is retried with backoff, not hammered.
///
/// Runs on a serial queue of its own (ticks never overlap; a sync the host started meanwhile just
/// makes the tick wait). What a merge changed reaches the face through the observer, which says it
/// its own way; failures go to `log`, a warning when the kind of failure changes, a note otherwise.
public final class BackgroundSync: @unchecked Sendable {
  /// Where the periodic sync's own lines go; `warning` is true for a new kind of failure.
  public typealias Log = @Sendable (_ line: String, _ warning: Bool) -> Void

  private let inbox: Inbox
  private let interval: Int
  private let queue = DispatchQueue(label: "inbox-rpc.background-sync")
  // Unchecked: `timer` is the one non-Sendable member. It is made here, resumed once by `start` and
  // cancelled by `stop`; Dispatch sources are safe to resume and cancel from any thread.
  private let timer: DispatchSourceTimer
  private let started = Atomic<Bool>(false)
  private let stopping = CancellationFlag()
  private let lastFailure = Mutex<String?>(nil)

  init(inbox: Inbox, interval: Int) {
    self.inbox = inbox
    self.interval = interval
    timer = DispatchSource.makeTimerSource(queue: queue)
  }

  /// Starts ticking: the first sync runs one interval from now.
  public func start(observer: SyncObserver, log: @escaping Log) {
    guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
    timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .milliseconds(100))
    timer.setEventHandler { [self] in tick(observer: observer, log: log) }
    timer.resume()
  }

  /// Stops ticking, aborts a sync in flight, and returns once it has ended.
  public func stop() {
    stopping.cancel()
    timer.cancel()
    // A source must be activated before it is released; one never started is activated cancelled.
    if !started.exchange(true, ordering: .acquiringAndReleasing) { timer.resume() }
    queue.sync {}
  }

  /// One tick: skipped when another process on the store fetched within the interval (several
  /// servers' timers then make the backend calls of one), else a sync. The queue is suspended
  /// until it ends, so ticks never overlap, and no thread waits meanwhile.
  private func tick(observer: SyncObserver, log: @escaping Log) {
    guard !stopping.isCancelled, inbox.sync.settings.application != nil else { return }
    // A second less than the interval: this server's own ticks are never skipped for its own fetch.
    if inbox.sync.fetchedElsewhere(within: Int64(interval) - 1) {
      return observer.log("background sync: another process fetched within the interval; skipped")
    }
    queue.suspend()
    inbox.sync(respectBackoff: true, observer: observer, cancellation: stopping) { [self] result in
      ended(result, observer: observer, log: log)
      queue.resume()
    }
  }

  private func ended(_ result: Result<SyncReport, SyncFailure>, observer: SyncObserver, log: Log) {
    switch result {
    case .success(let report):
      if lastFailure.withLock({ $0 }) != nil { log("background sync: the backend answers again", false) }
      lastFailure.withLock { $0 = nil }
      observer.log("background sync: pushed \(report.pushed), pending \(report.pending)")
    case .failure(let error):
      if case .cancelled = error.error { return }
      let kind = Self.kind(error.error)
      let changed = lastFailure.withLock { last -> Bool in
        defer { last = kind }
        return last != kind
      }
      log("background sync failed: \(error.error); \(error.partial.pending) changes stay queued", changed)
    }
  }

  /// The kind of a failure, so a backend that keeps failing the same way is not a new warning.
  private static func kind(_ error: SyncError) -> String {
    switch error {
    case .notConfigured: "notConfigured"
    case .unavailable: "unavailable"
    case .refused: "refused"
    case .malformedReply: "malformedReply"
    case .cancelled: "cancelled"
    case .store: "store"
    }
  }
}
