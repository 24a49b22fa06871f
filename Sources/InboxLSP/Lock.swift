import Synchronization

/// A lock around the language server's state: `withLock` runs a closure that reads or changes the
/// server's own properties, which a `Mutex` of the state itself would have to hold as one value.
final class Lock: Sendable {
  private let mutex = Mutex(())

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    try mutex.withLock { _ in try body() }
  }
}
