import JSON
import JSONRPC
import Synchronization

/// The syslog severities MCP logging uses, least severe first.
enum LogLevel: String, CaseIterable, Comparable, Sendable {
  case debug, info, notice, warning, error, critical, alert, emergency

  static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }

  private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// Which engine warnings reach the host as `notifications/message`: the level `logging/setLevel`
/// chose (handshake revisions; warnings by default), or the one a stateless request carries in
/// its `_meta` (none there means none may be sent).
final class LogSettings: Sendable {
  private let level = Mutex<LogLevel>(.warning)
  private let era: Era

  init(era: Era) { self.era = era }

  /// `logging/setLevel {level}` -> `{}`.
  func setLevel(_ request: RequestContext) throws -> JSONValue {
    let name = try request.params.requiredString("level")
    guard let parsed = LogLevel(rawValue: name) else {
      let names = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
      throw RPCError.invalidParams("level", "unknown level \"\(name)\" (expected one of: \(names))")
    }
    level.withLock { $0 = parsed }
    return [:]
  }

  /// Whether a message at `candidate` may be sent in answer to `params`' request (nil: outside any request).
  func allows(_ candidate: LogLevel, for params: Params?) -> Bool {
    if let params, Revision.requested(params) != nil {
      guard let name = params.raw?["_meta"]?[Revision.logLevelKey]?.stringValue, let wanted = LogLevel(rawValue: name)
      else { return false }
      return candidate >= wanted
    }
    return era.isHandshake && candidate >= level.withLock { $0 }
  }
}
