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
    report(warnings, logger: request.logger, notify: request.notify)
  }

  /// The same, for work that runs outside a request (the background sync).
  func report(_ warnings: [Warning], logger: Logger, notify: (String, JSONValue) -> Void) {
    let fresh = seen.withLock { seen -> [Warning] in
      if seen.count + warnings.count > Self.capacity { seen.removeAll(keepingCapacity: true) }
      return warnings.filter { seen.insert($0).inserted }
    }
    for warning in fresh {
      // One line for people, whatever the payload's text; `data` carries it as is.
      let line = warning.description.escapingControlCharacters
      logger.warn(line)
      notify("log", ["level": "warn", "message": .string(line), "data": warning.json])
    }
  }
}
