import Dispatch

/// Confines the reading connection: a Dispatch semaphore of one, taken and given back around each use.
/// (A `Mutex` holds a value; this guards a connection that is used across calls.)
final class StoreLock: Sendable {
  private let semaphore = DispatchSemaphore(value: 1)

  func lock() { semaphore.wait() }
  func unlock() { semaphore.signal() }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}
