import Foundation

/// Runs each document's lint a debounce after its last edit, on a thread of its own: an edit that
/// arrives before the run starts moves it later, and one that arrives during the run makes the
/// server drop that run's result (its version is stale) and run again.
final class LintScheduler: @unchecked Sendable {
  private let condition = NSCondition()
  private var due: [String: Date] = [:]
  private var stopped = false
  private let run: @Sendable (String) -> Void
  private var started = false

  init(run: @escaping @Sendable (String) -> Void) { self.run = run }

  func schedule(_ uri: String, after milliseconds: Int) {
    condition.withLock {
      guard !stopped else { return }
      due[uri] = Date().addingTimeInterval(Double(milliseconds) / 1000)
      if !started {
        started = true
        Thread.detachNewThread { [self] in loop() }
      }
      condition.signal()
    }
  }

  func forget(_ uri: String) { condition.withLock { due[uri] = nil } }

  func stop() {
    condition.withLock {
      stopped = true
      due = [:]
      condition.signal()
    }
  }

  private func loop() {
    while let uri = next() { run(uri) }
  }

  /// Waits for the earliest document due; nil once stopped.
  private func next() -> String? {
    condition.lock()
    defer { condition.unlock() }
    while !stopped {
      guard let (uri, when) = due.min(by: { $0.value < $1.value }) else {
        condition.wait()
        continue
      }
      if when <= Date() {
        due[uri] = nil
        return uri
      }
      condition.wait(until: when)
    }
    return nil
  }
}
