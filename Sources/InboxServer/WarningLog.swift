import InboxCore
import JSON
import JSONRPC
import Synchronization

/// Reports engine warnings once each: as a WARN line on stderr and a `log` notification. A feed
/// re-listed a thousand times repeats no warning; the memory of what was said is bounded.
final class WarningLog: Sendable {
  private let seen = Mutex<Set<Warning>>([])
  private static let capacity = 20_000

  func report(_ warnings: [Warning], _ request: RequestContext) {
    let fresh = seen.withLock { seen -> [Warning] in
      if seen.count + warnings.count > Self.capacity { seen.removeAll(keepingCapacity: true) }
      return warnings.filter { seen.insert($0).inserted }
    }
    for warning in fresh {
      request.logger.warn(warning.description)
      request.notify("log", ["level": "warn", "message": .string(warning.description), "data": warning.json])
    }
  }
}
