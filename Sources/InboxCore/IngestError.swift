/// Why a payload was refused at ingest, so the host learns it is not an inbox message and nothing is stored.
///
/// Only ingest throws (SPEC.md §1: a payload without inbox fields is refused, never stored). Everything else
/// the engine dislikes becomes a `Warning` and the message is still shown.
public enum IngestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The payload is not an inbox message; `reason` says which keys were looked for or which field is wrong.
  case notAnInboxMessage(reason: String)

  /// A stable machine code for the error: `"notAnInboxMessage"`.
  public var code: String {
    switch self {
    case .notAnInboxMessage: return "notAnInboxMessage"
    }
  }

  /// The human-readable reason.
  public var reason: String {
    switch self {
    case .notAnInboxMessage(let reason): return reason
    }
  }

  /// `not an inbox message: <reason>`, for logs.
  public var description: String { "not an inbox message: \(reason)" }
}
