#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with a condition, on pthreads: what the logger's queue and the worker pool wait on.
/// (Foundation's NSLock and NSCondition would pull Foundation into the binary, which costs
/// start-up time; Synchronization's Mutex has no condition to wait on.)
public final class ConditionLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }

  /// Takes the lock if it is free; false at once if not.
  public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
  public func unlock() { pthread_mutex_unlock(mutex) }

  public func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Waits for a signal. - Important: call with the lock held.
  public func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits for a signal until `deadline` (monotonic nanoseconds); false on time-out.
  /// - Important: call with the lock held.
  public func wait(untilMonotonic deadline: UInt64) -> Bool {
    let now = Clock.monotonicNanoseconds
    guard deadline > now else { return false }
    // pthread_cond_timedwait measures against CLOCK_REALTIME by default: convert the interval.
    var realtime = timespec()
    clock_gettime(CLOCK_REALTIME, &realtime)
    let total = UInt64(realtime.tv_nsec) + (deadline - now)
    realtime.tv_sec += Int(total / 1_000_000_000)
    realtime.tv_nsec = Int(total % 1_000_000_000)
    return pthread_cond_timedwait(condition, mutex, &realtime) == 0
  }

  public func signal() { pthread_cond_signal(condition) }
  public func broadcast() { pthread_cond_broadcast(condition) }
}
