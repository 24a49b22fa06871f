import InboxCore
import Synchronization

/// Which engine warnings have been said: each is said once, so a feed re-listed a thousand times
/// repeats none. The memory of what was said is bounded.
public final class WarningLog: Sendable {
  private let seen = Mutex<Set<Warning>>([])
  private static let capacity = 20_000

  public init() {}

  /// The warnings of `warnings` not said before, now counted as said.
  func fresh(_ warnings: [Warning]) -> [Warning] {
    seen.withLock { seen -> [Warning] in
      if seen.count + warnings.count > Self.capacity { seen.removeAll(keepingCapacity: true) }
      return warnings.filter { seen.insert($0).inserted }
    }
  }
}
