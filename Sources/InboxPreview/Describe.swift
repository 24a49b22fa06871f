import InboxCore
import JSON

/// Actions in words, for tooltips, captions and the notes (unescaped: callers escape).
enum Describe {
  /// The short caption under a button: "open URL", "dismiss", "mark read", "custom".
  static func caption(_ action: ButtonAction) -> String {
    switch action {
    case .openURL(let url): return LinkPolicy.href(url) == nil ? "URL not linked" : "open URL"
    case .dismiss: return "dismiss"
    case .markRead: return "mark read"
    case .custom: return "custom"
    }
  }

  /// The full action: `openURL https://…`, `dismiss`, `markRead`, `custom {"tag":"save_promo"}`.
  static func button(_ action: ButtonAction) -> String {
    switch action {
    case .openURL(let url): return "openURL \(url)"
    case .custom(let payload): return "custom \(JSONValue.object(payload).jsonString)"
    default: return action.type
    }
  }

  /// What a row or slide tap does: `deeplink myapp://orders/1234`, `richMedia CODE`, `none`.
  static func rowAction(_ action: RowAction) -> String {
    switch action {
    case .openURL(let url): return "openURL \(url)"
    case .deeplink(let url): return "deeplink \(url)"
    case .richMedia(let code): return "richMedia \(code)"
    case .none: return "none"
    }
  }

  /// The URL a row action opens, if it opens one.
  static func target(_ action: RowAction) -> String? {
    switch action {
    case .openURL(let url), .deeplink(let url): return url
    case .richMedia, .none: return nil
    }
  }
}
