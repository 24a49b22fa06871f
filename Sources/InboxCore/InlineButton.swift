import JSON

/// A call-to-action button under a captioned or classic card, resolved to exactly one action.
///
/// Wire (`data.buttons`, through the one lookup), at most 3:
/// ```
/// {"buttons": [
///   {"title": "Claim", "url": "https://example.com/promo/SUMMER2026"},
///   {"title": "Read", "action": "markRead"},
///   {"title": "Save", "action": "custom", "tag": "save_promo"}
/// ]}
/// ```
/// JSON out: `{"title": "Claim", "action": {"type": "openURL", "url": "https://example.com/promo/SUMMER2026"}}`.
public struct InlineButton: Sendable, Hashable {
  /// At most this many buttons are kept; usable buttons past the third are dropped with a warning.
  public static let maximumCount = 3

  /// The visible label.
  public var title: String
  /// What a tap does.
  public var action: ButtonAction

  /// Builds a button.
  public init(title: String, action: ButtonAction) {
    self.title = title
    self.action = action
  }

  /// `{"title", "action": ButtonAction}`.
  public var json: JSONValue { ["title": .string(title), "action": action.json] }

  // MARK: - Decoding

  /// Decodes `data.buttons`; every dropped or reinterpreted button adds a warning.
  ///
  /// A non-object item or one without a non-blank string `title` is dropped and does not use one of the
  /// 3 places (as slides without an image do not); usable buttons past the third are dropped.
  static func decodeAll(_ data: CustomData, schemes: SchemeGuard, diagnostics: inout Diagnostics) -> [InlineButton] {
    guard let value = data.value(for: "buttons"), value != .null else { return [] }
    guard let items = value.arrayValue else {
      diagnostics.warn(.buttonDropped, "data.buttons is \(InboxMessage.describe(value)), not an array; no buttons")
      return []
    }
    var kept: [InlineButton] = []
    // Numbered from 0 in every message, as the card's buttons and slides are (`button.tap`, the hover).
    for (number, item) in items.enumerated() {
      let place = ["buttons", String(number)]
      guard let button = item.objectValue else {
        diagnostics.warn(
          .buttonDropped, "button \(number) is \(InboxMessage.describe(item)), not an object; dropped", at: place)
        continue
      }
      guard let title = Lenient.text(button["title"]) else {
        let found = button["title"].map { InboxMessage.describe($0) } ?? "missing"
        diagnostics.warn(
          .buttonDropped, "button \(number) has no title (title is \(found), a non-empty string is required); dropped",
          at: place)
        continue
      }
      let action = resolveAction(button, number: number, at: place, &diagnostics)
      if case .openURL(let url) = action, let scheme = schemes.deniedScheme(url) {
        let consequence = "the button is dropped (it does not use one of the 3 places)"
        diagnostics.warn(
          .unsafeScheme, schemes.refusal("button \(number) url", scheme: scheme, then: consequence), at: place + ["url"]
        )
        continue
      }
      guard kept.count < maximumCount else {
        diagnostics.warn(
          .buttonDropped, "button \(number) \(title.quotedForMessage) is past the 3rd button; dropped", at: place)
        continue
      }
      kept.append(InlineButton(title: title, action: action))
    }
    return kept
  }

  /// The action of one button, by priority (docs/engine.md#buttons):
  /// 1. an explicit `action` token, case-insensitive: `"dismiss"`, `"markRead"`, `"custom"`
  ///    (`{"title": "Save", "action": "custom", "url": "https://x.example"}` stays custom; the url travels in
  ///    the payload); an unknown token counts as absent and warns;
  /// 2. otherwise a non-empty, parseable `url` (with a scheme): `openURL`
  ///    (a url without a scheme, such as `"example.com"`, warns and falls through);
  /// 3. otherwise `custom`, with the button minus `title` and `action` as payload.
  static func resolveAction(
    _ button: JSONObject, number: Int, at place: [String] = [], _ diagnostics: inout Diagnostics
  ) -> ButtonAction {
    let payload = button.removing(["title", "action"])
    if let token = button["action"], token != .null, token.stringValue?.isBlank != true {
      switch token.stringValue?.trimmingWhitespace().lowercased() {
      case "dismiss"?: return .dismiss
      case "markread"?: return .markRead
      case "custom"?: return .custom(payload: payload)
      default:
        diagnostics.warn(
          .unknownButtonAction,
          "button \(number) action \(InboxMessage.describe(token)) is not dismiss, markRead or custom; ignored",
          at: place + ["action"])
      }
    }
    if let urlValue = button["url"], urlValue != .null, urlValue.stringValue?.isBlank != true {
      if let url = ParseableURL(urlValue, policy: .anyScheme) { return .openURL(url.string) }
      diagnostics.warn(
        .invalidButtonURL,
        "button \(number) url \(InboxMessage.describe(urlValue)) is not a parseable URL (it needs a scheme); "
          + "the button is custom", at: place + ["url"])
    }
    return .custom(payload: payload)
  }
}
