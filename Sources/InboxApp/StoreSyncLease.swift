import Dispatch
import InboxStore
import InboxSync
import Posix
import Synchronization

/// The sync lease of the processes on one store: an exclusive `flock` on the store's signal file.
/// The kernel drops it when its holder's descriptor closes, a `kill -9` included, and that close
/// is an event `FileWatcher` sees; a normal release unlocks and rings. Either way the waiting
/// processes' followers wake and try again: a wait polls nothing for that.
///
/// A holder that is alive but makes no progress (stopped with SIGSTOP or Ctrl-Z, or hung) would
/// hold it for ever, so the holder writes a sign of life into the file every `beatSeconds` while it
/// holds it (`SignalFile.beat`), and a process that has waited `staleSeconds` without seeing one
/// runs its sync without the lease. Only a waiting process checks, once a second.
final class StoreSyncLease: SyncGate {
  /// How often a holder says it is alive.
  static let beatSeconds = 2
  /// How long a waiter waits without a sign of life before it takes the lease over
  /// (`--sync-lease-patience`, 15 s by default).
  let staleSeconds: Double

  let signals: SignalFile
  let follower: StoreFollower
  private let queue = DispatchQueue(label: "inbox-rpc.sync-lease")
  /// The timer that beats while this process holds (or took over) the lease.
  private let beating = Mutex<Repeating?>(nil)

  init(signals: SignalFile, follower: StoreFollower, patience: Double) {
    self.signals = signals
    self.follower = follower
    staleSeconds = patience
  }

  func acquire(
    cancellation: any Cancellable, waiting: @escaping @Sendable () -> Void,
    _ granted: @escaping @Sendable (_ waited: Bool?) -> Void
  ) {
    // The wait is woken by the follower: it follows from now on, if it did not yet. Without one
    // nothing would wake the wait: run as if alone, as before the lease.
    follower.startIfPending()
    if signals.tryLock() || !follower.isWatching {
      startBeating()
      return granted(false)
    }
    waiting()
    let decided = Decision()
    let grant: @Sendable (Bool?) -> Void = { [self] waited in
      decided.stopChecking()
      if waited != nil { startBeating() }
      granted(waited)
    }
    cancellation.onCancel {
      if decided.claim() { grant(nil) }
    }
    decided.check(every: 1, on: queue) { [self, started = Clock.monotonicNanoseconds] in
      guard isStale(waitingSince: started), decided.claim() else { return }
      follower.log(
        "the process holding the store's sync lease has shown no sign of life for "
          + "\(Int(staleSeconds)) s (stopped?); syncing without it")
      grant(true)
    }
    attempt(decided, grant)
  }

  func release() {
    beating.withLock { timer in
      timer?.cancel()
      timer = nil
    }
    signals.unlock()
  }

  /// True when this process has waited `staleSeconds` and the holder's last sign of life is older.
  private func isStale(waitingSince started: UInt64) -> Bool {
    let waited = Double(Clock.monotonicNanoseconds - started) / 1_000_000_000
    return waited >= staleSeconds && (signals.secondsSinceBeat() ?? .infinity) >= staleSeconds
  }

  private func startBeating() {
    signals.beat()
    let timer = Repeating(every: Self.beatSeconds, on: queue) { [signals] in signals.beat() }
    beating.withLock { old in
      old?.cancel()
      old = timer
    }
  }

  /// Asks to be woken by the next event first, then tries: a release between the two still wakes it.
  private func attempt(_ decided: Decision, _ granted: @escaping @Sendable (Bool?) -> Void) {
    guard !decided.isMade else { return }
    follower.afterNextWake { [self] in attempt(decided, granted) }
    guard signals.tryLock() else { return }
    if decided.claim() {
      granted(true)
    } else {
      signals.unlock()  // cancelled or taken over meanwhile
    }
  }

  /// Whether a wait ended, by the lease, a takeover or a cancel: the first to claim it answers.
  private final class Decision: Sendable {
    private let made = Atomic<Bool>(false)
    private let checker = Mutex<Repeating?>(nil)
    var isMade: Bool { made.load(ordering: .acquiring) }
    func claim() -> Bool { !made.exchange(true, ordering: .acquiringAndReleasing) }

    /// Runs `body` every `seconds` on `queue` until `stopChecking`.
    func check(every seconds: Int, on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
      let timer = Repeating(every: seconds, on: queue, body)
      checker.withLock { $0 = timer }
      if isMade { stopChecking() }
    }

    func stopChecking() {
      checker.withLock { timer in
        timer?.cancel()
        timer = nil
      }
    }
  }
}

/// A Dispatch timer that runs `body` every `seconds` on `queue` until cancelled.
private final class Repeating: @unchecked Sendable {
  // Unchecked: the source is made here and only cancelled after, which Dispatch allows from any thread.
  private let source: any DispatchSourceTimer

  init(every seconds: Int, on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    source = DispatchSource.makeTimerSource(queue: queue)
    source.schedule(deadline: .now() + .seconds(seconds), repeating: .seconds(seconds))
    source.setEventHandler(handler: body)
    source.resume()
  }

  func cancel() { source.cancel() }
}
