import Dispatch
import InboxSync
import JSON
import JSONRPC
import Posix
import Synchronization

/// The periodic sync (`--sync-interval`): every interval, a sync that honours the fetch throttle and
/// each queued change's retry time, so a backend that is down is retried with backoff, not hammered.
///
/// Runs on a serial queue of its own (ticks never overlap; a sync the host started meanwhile just
/// makes the tick wait). The host hears `feed.changed {reason: "sync"}` when a merge changed the
/// feed; failures go to stderr, a warning when the kind of failure changes, info otherwise.
final class BackgroundSync: @unchecked Sendable {
  private let server: ServerState
  private let interval: Int
  private let queue = DispatchQueue(label: "inbox-rpc.background-sync")
  // Unchecked: `timer` is the one non-Sendable member. It is made here, resumed once by `start` and
  // cancelled by `stop`; Dispatch sources are safe to resume and cancel from any thread.
  private let timer: DispatchSourceTimer
  private let started = Atomic<Bool>(false)
  private let stopping = CancellationFlag()
  private let lastFailure = Mutex<String?>(nil)

  init(server: ServerState, interval: Int) {
    self.server = server
    self.interval = interval
    timer = DispatchSource.makeTimerSource(queue: queue)
  }

  /// Starts ticking: the first sync runs one interval from now.
  func start(notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger) {
    guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
    timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .milliseconds(100))
    timer.setEventHandler { [self] in tick(notify: notify, logger: logger) }
    timer.resume()
  }

  /// Stops ticking, aborts a sync in flight, and returns once it has ended.
  func stop() {
    stopping.cancel()
    timer.cancel()
    // A source must be activated before it is released; one never started is activated cancelled.
    if !started.exchange(true, ordering: .acquiringAndReleasing) { timer.resume() }
    queue.sync {}
  }

  private func tick(notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger) {
    guard !stopping.isCancelled, server.inbox.sync.settings.application != nil else { return }
    let observer = server.syncObserver(notify: notify, logger: logger, progress: false)
    do {
      let report = try server.inbox.sync(
        force: false, respectBackoff: true, observer: observer, cancellation: stopping)
      if lastFailure.withLock({ $0 }) != nil { logger.info("background sync: the backend answers again") }
      lastFailure.withLock { $0 = nil }
      logger.debug("background sync: pushed \(report.pushed), pending \(report.pending)")
    } catch {
      if case .cancelled = error.error { return }
      let kind = error.error.rpcError.code.rawValue
      let changed = lastFailure.withLock { last -> Bool in
        defer { last = "\(kind)" }
        return last != "\(kind)"
      }
      let line = "background sync failed: \(error.error); \(error.partial.pending) changes stay queued"
      if changed { logger.warn(line) } else { logger.info(line) }
    }
  }
}
