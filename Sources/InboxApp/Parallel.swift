import Dispatch
import Posix
import Synchronization

/// Work on a list spread over the machine's cores, results in the list's order: lint's payloads of
/// one file, and its files of a directory.
public enum Parallel {
  /// `items.map(transform)`, computed in chunks, sixty-four per core: the cores take them as they
  /// finish the last, so one left with a slow chunk at the end holds the others up for little.
  public static func map<Item: Sendable, Result: Sendable>(
    _ items: [Item], _ transform: @Sendable (Item) -> Result
  ) -> [Result] {
    let cores = max(1, Threads.cores)
    guard items.count > 1, cores > 1 else { return items.map(transform) }
    let chunks = min(items.count, cores * 64)
    let parts = Mutex<[[Result]]>(Array(repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let range = (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks)
      let part = items[range].map(transform)
      parts.withLock { $0[chunk] = part }
    }
    return parts.withLock { $0.flatMap { $0 } }
  }

  /// `(first(), second())`, each on a core of its own when there are two.
  public static func both<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
  ) -> (First, Second) {
    guard Threads.cores > 1 else { return (first(), second()) }
    let results = Mutex<(First?, Second?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      if index == 0 {
        let value = first()
        results.withLock { $0.0 = value }
      } else {
        let value = second()
        results.withLock { $0.1 = value }
      }
    }
    return results.withLock { ($0.0!, $0.1!) }
  }
}
