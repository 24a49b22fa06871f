/// Why a payload was refused at ingest, so the host learns it is not an inbox message and nothing is stored.
///
/// Only ingest throws (docs/engine.md#payload-shapes: a payload without inbox fields is refused, never
/// stored). Everything else the engine dislikes becomes a `Warning` and the message is still shown.
public enum IngestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The payload is not an inbox message; `reason` says which keys were looked for or which field is wrong.
  case notAnInboxMessage(reason: String)
  /// The payload's compact text is past the per-message limit (`MessageSizeLimit`); nothing is stored.
  case tooLarge(size: Int, limit: MessageSizeLimit)

  /// A stable machine code for the error: `"notAnInboxMessage"` or `"messageTooLarge"`.
  public var code: String {
    switch self {
    case .notAnInboxMessage: return "notAnInboxMessage"
    case .tooLarge: return "messageTooLarge"
    }
  }

  /// The human-readable reason.
  public var reason: String {
    switch self {
    case .notAnInboxMessage(let reason): return reason
    case .tooLarge(let size, let limit): return limit.reason(size: size)
    }
  }

  /// `not an inbox message: <reason>`, for logs.
  public var description: String {
    switch self {
    case .notAnInboxMessage: "not an inbox message: \(reason)"
    case .tooLarge: "message too large: \(reason)"
    }
  }
}
