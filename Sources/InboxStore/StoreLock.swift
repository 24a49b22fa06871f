import Dispatch

/// Confines one connection: a Dispatch semaphore of one, taken and given back around each use.
/// (A `Mutex` holds a value; this guards a connection that is used across calls, and can be tried.)
final class StoreLock: Sendable {
  private let semaphore = DispatchSemaphore(value: 1)

  func lock() { semaphore.wait() }
  func unlock() { semaphore.signal() }

  /// Takes the lock if it is free; false at once if not.
  func tryLock() -> Bool { semaphore.wait(timeout: .now()) == .success }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}
