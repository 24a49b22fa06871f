import Dispatch
import Synchronization

/// Writes waiting for another process's write lock on the store, each a callback, not a thread:
/// woken when the lock may be free (another process's commit rings the store's signal file, which
/// wakes the follower, which rings here; this process's writer, once a write it refused may go,
/// rings here too; a holder that is not this program rings nothing, so each
/// is also woken at the intervals SQLite's own busy handler tries again at), and at the latest at
/// its deadline.
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

/// A write that met another process's write lock before it committed anything: its caller may
/// run it again when the lock may be free (`StoreLockWaits`).
public struct LockedWrite: Error {
  public init() {}
}

extension InboxStore {
  /// Runs `body`, a use case that writes, leaving another process's write lock to the caller to
  /// wait for: `LockedWrite` when a write in it met the lock before any of its writes committed
  /// (nothing was done); `StoreError.lockHeld` when one met it after (part of it was).
  public func handingLockWaits<T>(_ body: () throws -> T) throws -> T {
    let handed = HandedWrites()
    do {
      return try LockWaits.$handed.withValue(handed) { try body() }
    } catch let error as StoreError where error.lockHeld && !handed.committed {
      throw LockedWrite()
    }
  }
}

/// One caller's wait for the store's write lock: when its patience (`LockWaits.patience`, from the
/// first wait) ends, and how many waits it has made, which space the wake-ups as SQLite's busy
/// handler spaces its tries.
public struct LockWaitTally: Sendable {
  private var deadline: DispatchTime?
  private var attempts = 0

  public init() {}

  /// Counts a wait for the lock; false once the patience has passed: the caller fails
  /// `StoreError.lockHeldTooLong`.
  public mutating func count() -> Bool {
    let deadline = deadline ?? .now() + LockWaits.patience
    guard DispatchTime.now() < deadline else { return false }
    self.deadline = deadline
    attempts += 1
    return true
  }

  /// Calls `resume` once, when the lock the wait counted last may be free.
  public func wake(on waits: StoreLockWaits, _ resume: @escaping @Sendable () -> Void) {
    waits.wake(attempt: attempts - 1, deadline: deadline ?? .now(), resume)
  }
}

extension InboxStore {
  /// Makes `body`, a use case that writes, without a thread waiting for the store's write lock: a
  /// write in it that meets the lock before any committed is made again when the lock may be free,
  /// until the patience passes (`busy`). `completion` gets its outcome.
  public func writeWhenFree<T: Sendable>(
    _ body: @escaping @Sendable () throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
  ) {
    PatientWrite(store: self, body: body, completion: completion).attempt()
  }
}

/// A write waiting for the lock as a callback (`InboxStore.writeWhenFree`).
private final class PatientWrite<T: Sendable>: @unchecked Sendable {
  // Unchecked: `tally` is touched by one attempt at a time, each started by the one before.
  let store: InboxStore
  let body: @Sendable () throws -> T
  let completion: @Sendable (Result<T, any Error>) -> Void
  var tally = LockWaitTally()

  init(
    store: InboxStore, body: @escaping @Sendable () throws -> T,
    completion: @escaping @Sendable (Result<T, any Error>) -> Void
  ) {
    (self.store, self.body, self.completion) = (store, body, completion)
  }

  func attempt() {
    do {
      completion(.success(try store.handingLockWaits(body)))
    } catch is LockedWrite {
      guard tally.count() else { return completion(.failure(StoreError.lockHeldTooLong)) }
      tally.wake(on: store.lockWaits) { [self] in DispatchQueue.global().async { [self] in attempt() } }
    } catch {
      completion(.failure(error))
    }
  }
}
