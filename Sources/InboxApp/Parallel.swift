import Dispatch
import Posix
import Synchronization

/// Work on a list spread over the machine's cores, results in the list's order: lint's payloads of
/// one file, and its files of a directory.
public enum Parallel {
  /// `items.map(transform)`, computed in a few chunks per core.
  public static func map<Item: Sendable, Result: Sendable>(
    _ items: [Item], _ transform: @Sendable (Item) -> Result
  ) -> [Result] {
    let cores = max(1, Threads.cores)
    guard items.count > 1, cores > 1 else { return items.map(transform) }
    let chunks = min(items.count, cores * 4)
    let parts = Mutex<[[Result]]>(Array(repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let range = (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks)
      let part = items[range].map(transform)
      parts.withLock { $0[chunk] = part }
    }
    return parts.withLock { $0.flatMap { $0 } }
  }
}
