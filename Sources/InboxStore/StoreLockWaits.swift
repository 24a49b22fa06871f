import Dispatch
import Synchronization

/// Writes waiting for another process's write lock on the store, each a callback, not a thread:
/// woken when the lock may be free (another process's commit rings the store's signal file, which
/// wakes the follower, which rings here; this process's writer, once a write it refused may go,
/// rings here too), and at the latest at its deadline. A holder that is not this program (the
/// `sqlite3` shell, a backup) rings nothing, and SQLite offers no event for a lock's release, so
/// each wait is also woken by a timer, at the intervals SQLite's own busy handler tries again at:
/// a timer callback, no thread held, bounded by the writer's `Patience` (5 s: some 60 tries).
public final class StoreLockWaits: Sendable {
  /// SQLite's busy handler's delays between tries, in milliseconds (`sqliteDefaultBusyCallback`).
  static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]
  private let waiting = Mutex<[LockWaiter]>([])

  /// Calls `resume` once: at the next ring, after the `attempt`th delay, or at `deadline`, whichever
  /// comes first.
  public func wake(attempt: Int, deadline: DispatchTime, _ resume: @escaping @Sendable () -> Void) {
    let waiter = LockWaiter(resume)
    waiting.withLock { waiting in
      waiting.removeAll { $0.hasWoken }
      waiting.append(waiter)
    }
    let delay = Self.delays[min(max(attempt, 0), Self.delays.count - 1)]
    DispatchQueue.global().asyncAfter(deadline: min(.now() + .milliseconds(delay), deadline)) { waiter.wake() }
  }

  /// Another process committed, or this process's writer is free: the lock may be free.
  public func ring() {
    let woken = waiting.withLock { waiting in
      defer { waiting = [] }
      return waiting
    }
    for waiter in woken { waiter.wake() }
  }
}

/// One wait: woken once, by whichever comes first.
private final class LockWaiter: Sendable {
  private let resume: Mutex<(@Sendable () -> Void)?>

  init(_ resume: @escaping @Sendable () -> Void) { self.resume = Mutex(resume) }

  var hasWoken: Bool { resume.withLock { $0 == nil } }

  func wake() {
    let once = resume.withLock { resume in
      defer { resume = nil }
      return resume
    }
    once?()
  }
}
