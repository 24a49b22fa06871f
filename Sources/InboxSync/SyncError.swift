import InboxStore
import JSON

/// Why a sync, or one backend call, did not succeed. Each case maps to one documented error code
/// (docs/sync.md#errors), and none carries the API token or a request header.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No application code is configured (`missing` names what to set), so there is no backend to call.
  case notConfigured(missing: [String])
  /// The backend could not be reached or stopped answering: connection refused, DNS failure, TLS
  /// failure, timeout, or the connection closed before the whole reply arrived.
  case unavailable(method: String, reason: String)
  /// The backend answered but did not accept the call: HTTP status other than 200, or HTTP 200 with a
  /// `status_code` other than 200. `statusCode` and `statusMessage` are the reply's, when it had them;
  /// `location` is a redirect's target (redirects are not followed: they would carry the token elsewhere).
  case refused(method: String, httpStatus: Int, statusCode: Int64?, statusMessage: String?, location: String?)
  /// The reply was HTTP 200 but not the contract's shape: empty, not JSON, or a member of the wrong type
  /// (`path` is a JSON path into the reply, `$` for the whole of it).
  case malformedReply(method: String, path: String, reason: String)
  /// The host cancelled the sync (`$/cancelRequest`) or the server is stopping.
  case cancelled
  /// The store failed while the sync read or wrote it.
  case store(StoreError)

  public var description: String {
    switch self {
    case .notConfigured(let missing):
      return "the backend is not configured (missing: \(missing.joined(separator: ", ")))"
    case .unavailable(let method, let reason):
      return "backend unavailable (\(method)): \(reason)"
    case .refused(let method, let httpStatus, let statusCode, let statusMessage, _):
      var text = "backend refused \(method): HTTP \(httpStatus)"
      if let statusCode { text += ", status_code \(statusCode)" }
      if let statusMessage { text += " (\(statusMessage))" }
      return text
    case .malformedReply(let method, let path, let reason):
      return "malformed reply to \(method) at \(path): \(reason)"
    case .cancelled:
      return "sync cancelled"
    case .store(let error):
      return "store: \(error)"
    }
  }

  public static func == (lhs: SyncError, rhs: SyncError) -> Bool {
    switch (lhs, rhs) {
    case (.notConfigured(let a), .notConfigured(let b)): return a == b
    case (.unavailable(let a, let x), .unavailable(let b, let y)): return a == b && x == y
    case (.refused(let a1, let a2, let a3, let a4, let a5), .refused(let b1, let b2, let b3, let b4, let b5)):
      return a1 == b1 && a2 == b2 && a3 == b3 && a4 == b4 && a5 == b5
    case (.malformedReply(let a1, let a2, let a3), .malformedReply(let b1, let b2, let b3)):
      return a1 == b1 && a2 == b2 && a3 == b3
    case (.cancelled, .cancelled): return true
    case (.store(let a), .store(let b)): return a.kind == b.kind && a.code == b.code && a.message == b.message
    default: return false
    }
  }

  /// A reply of `method` whose text is not JSON, as `error` found.
  static func notJSON(method: String, _ error: JSONError) -> SyncError {
    .malformedReply(method: method, path: "$", reason: "the reply is not JSON: \(error.description)")
  }
}
