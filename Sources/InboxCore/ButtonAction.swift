import JSON

/// The one action an inline button performs, typed so the host switches over four cases
/// (docs/protocol.md#buttonaction).
///
/// The engine performs `dismiss` and `markRead` itself on a tap, returns `openURL` for the host to open,
/// and never performs `custom`: it hands the payload over (docs/engine.md#buttons).
public enum ButtonAction: Sendable, Hashable {
  /// Open this URL (any scheme).
  case openURL(String)
  /// Remove the message from the feed, persistently.
  case dismiss
  /// Mark the message read, persistently.
  case markRead
  /// Marketer-defined: every key of the button except `title` and `action`.
  case custom(payload: JSONObject)

  /// The wire name of the type: `openURL`, `dismiss`, `markRead`, `custom`.
  public var type: String {
    switch self {
    case .openURL: return "openURL"
    case .dismiss: return "dismiss"
    case .markRead: return "markRead"
    case .custom: return "custom"
    }
  }

  /// `{"type":"openURL","url"}` | `{"type":"dismiss"}` | `{"type":"markRead"}` | `{"type":"custom","payload"}`.
  public var json: JSONValue {
    switch self {
    case .openURL(let url): return ["type": "openURL", "url": .string(url)]
    case .dismiss: return ["type": "dismiss"]
    case .markRead: return ["type": "markRead"]
    case .custom(let payload): return ["type": "custom", "payload": .object(payload)]
    }
  }
}
