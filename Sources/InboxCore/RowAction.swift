import JSON

/// What tapping a message row does, derived from its action parameters (docs/engine.md#row-actions).
///
/// Decision order (as the iOS SDK's `updateType`, where a link overrides rich media):
/// 1. a non-blank string `l`: `openURL` when its scheme is http/https, otherwise `deeplink`
///    (`{"l": "https://example.com"}`, `{"l": "myapp://promo"}`);
/// 2. `rm`, `h` or `r` present and not null/blank: `richMedia` with that value as its code
///    (a string as is, anything else as compact JSON): `{"rm": "{\"url\": ...}"}`, `{"h": "ABCD"}`;
/// 3. otherwise `none`.
/// Only the action params root is read: `l`/`rm` are push keys, not marketer custom data.
public enum RowAction: Sendable, Hashable {
  /// Open a web URL in the browser.
  case openURL(String)
  /// Open an app link (any other scheme, or a link without one).
  case deeplink(String)
  /// Show a Pushwoosh rich media page.
  case richMedia(code: String)
  /// Nothing to do.
  case none

  /// Derives the row action from action parameters.
  public init(actionParams: JSONObject) {
    if let link = Lenient.text(actionParams["l"]) {
      self = RowAction.link(link)
      return
    }
    for key in ["rm", "h", "r"] {
      guard let value = actionParams[key] else { continue }
      switch value {
      case .null: continue
      case .string(let text):
        if text.isBlank { continue }
        self = .richMedia(code: text)
      default:
        self = .richMedia(code: value.jsonString)
      }
      return
    }
    self = .none
  }

  /// `openURL` for an http(s) link, `deeplink` for any other.
  static func link(_ text: String) -> RowAction {
    if let url = ParseableURL(text, policy: .anyScheme), url.isHTTP { return .openURL(url.string) }
    return .deeplink(text.trimmingWhitespace())
  }

  /// `{"type":"openURL","url"}` | `{"type":"deeplink","url"}` | `{"type":"richMedia","code"}` | `{"type":"none"}`.
  public var json: JSONValue {
    switch self {
    case .openURL(let url): return ["type": "openURL", "url": .string(url)]
    case .deeplink(let url): return ["type": "deeplink", "url": .string(url)]
    case .richMedia(let code): return ["type": "richMedia", "code": .string(code)]
    case .none: return ["type": "none"]
    }
  }
}
