import InboxStore
import InboxSync
import Posix
import Synchronization

/// The sync lease of the processes on one store: an exclusive `flock` on the store's signal file.
/// The kernel drops it when its holder's descriptor closes, a `kill -9` included, and that close
/// is an event `FileWatcher` sees; a normal release unlocks and rings. Either way the waiting
/// processes' followers wake and try again: a wait holds no thread and polls nothing.
struct StoreSyncLease: SyncGate {
  let signals: SignalFile
  let follower: StoreFollower

  func acquire(cancellation: any Cancellable, _ granted: @escaping @Sendable (_ waited: Bool?) -> Void) {
    // Without a follower nothing would wake the wait: run as if alone, as before the lease.
    if signals.tryLock() || !follower.isWatching { return granted(false) }
    let decided = Decision()
    cancellation.onCancel {
      if decided.claim() { granted(nil) }
    }
    attempt(decided, granted)
  }

  func release() { signals.unlock() }

  /// Asks to be woken by the next event first, then tries: a release between the two still wakes it.
  private func attempt(_ decided: Decision, _ granted: @escaping @Sendable (Bool?) -> Void) {
    guard !decided.isMade else { return }
    follower.afterNextWake { attempt(decided, granted) }
    guard signals.tryLock() else { return }
    if decided.claim() {
      granted(true)
    } else {
      signals.unlock()  // cancelled meanwhile
    }
  }

  /// Whether a wait ended, by the lease or by a cancel: the first to claim it answers.
  private final class Decision: Sendable {
    private let made = Atomic<Bool>(false)
    var isMade: Bool { made.load(ordering: .acquiring) }
    func claim() -> Bool { !made.exchange(true, ordering: .acquiringAndReleasing) }
  }
}
