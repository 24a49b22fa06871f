internal import CSQLite
import Posix
import Synchronization

/// The writing connection's busy handler: waits for another process's lock up to the busy timeout
/// (5 s), and says meanwhile that it is waiting, so requests queued behind the write need not.
final class LockWait: Sendable {
  static let timeoutNanoseconds: UInt64 = 5_000_000_000

  private let startedAt = Atomic<UInt64>(0)
  /// False for a write that gives up at once rather than wait (an opportunistic purge).
  private let patient = Atomic<Bool>(true)

  /// True while a write waits for another process to release the store.
  var isWaiting: Bool { startedAt.load(ordering: .relaxed) != 0 }

  /// Installs it on `handle`, which must not outlive it.
  func install(on handle: OpaquePointer?) {
    sqlite3_busy_handler(handle, lockWaitRetry, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Called by SQLite for each failed attempt: true to try again after a short sleep.
  fileprivate func retry(attempt: Int32) -> Bool {
    guard patient.load(ordering: .relaxed) else { return false }
    let now = Clock.monotonicNanoseconds
    if attempt == 0 { startedAt.store(now, ordering: .relaxed) }
    let started = startedAt.load(ordering: .relaxed)
    guard started != 0, now - started < Self.timeoutNanoseconds else {
      done()
      return false
    }
    Clock.sleep(milliseconds: attempt < 10 ? 1 : 10)
    return true
  }

  /// The write got the lock or gave up.
  func done() { startedAt.store(0, ordering: .relaxed) }

  /// Runs `body` with writes that fail at once when the store is locked.
  func withoutWaiting<T>(_ body: () throws -> T) rethrows -> T {
    patient.store(false, ordering: .relaxed)
    defer { patient.store(true, ordering: .relaxed) }
    return try body()
  }
}

private func lockWaitRetry(_ context: UnsafeMutableRawPointer?, _ attempt: Int32) -> Int32 {
  guard let context else { return 0 }
  return Unmanaged<LockWait>.fromOpaque(context).takeUnretainedValue().retry(attempt: attempt) ? 1 : 0
}
