import JSON

// MARK: - Wire encoding

extension Card {
  /// The Card as the JSON-RPC API returns it (docs/protocol.md#card).
  ///
  /// ```
  /// {"id": "m1", "kind": "classic", "requestedKind": "video",
  ///  "degraded": {"from": "video", "reason": "data.video.url is missing"},
  ///  "title": "Watch", "body": "Tap to play", "image": null,
  ///  "sentAt": "2026-11-30T08:00:00Z", "expiresAt": null,
  ///  "read": false, "actionPerformed": false, "pinned": false,
  ///  "buttons": [{"title": "Claim", "action": {"type": "openURL", "url": "https://example.com"}}],
  ///  "customData": {"promo_id": "SUMMER2026"}, "rowAction": {"type": "none"},
  ///  "avatar": {"initial": "W", "color": "#4DB6AC"}}
  /// ```
  /// Members always present: `id`, `kind`, `requestedKind`, `degraded` (null when not degraded), `title`,
  /// `body`, `image`, `sentAt`, `expiresAt` (RFC 3339 UTC, null when absent), `read`, `actionPerformed`,
  /// `pinned`, `seen`, `buttons`, `customData` (object or null), `rowAction`. `buttons` is always an array: it can
  /// only be non-empty on captioned and classic cards, the kinds that show buttons; on the other kinds it is
  /// `[]` (the buttons in the payload were dropped with a warning), so the shape never varies by kind.
  /// Then exactly one kind member:
  /// - banner, captioned: none;
  /// - classic: `avatar: {initial, color}`;
  /// - carousel: `carousel: [{image, title|null, url|null, accessibilityLabel, position: "1 of 3"}]`;
  /// - video: `video: {url, poster|null, playsWhenSilenced: true, accessibilityLabel: "Play video",
  ///   accessibilityTraits: ["button", "startsMediaSession"], accessibilityIdentifier: "inboxkit.video.play"}`;
  ///   the labels in the language of `attributes.locale` (`CardWords`).
  /// - wallet: `wallet: {pass, image|null, accessibilityIdentifier: "inboxkit.wallet.add"}`.
  public var json: JSONValue {
    var object: JSONObject = [
      "id": .string(id),
      "kind": .string(kind.rawValue),
      "requestedKind": .string(requestedKind.rawValue),
      "degraded": degradation?.json ?? .null,
      "title": Card.optional(title),
      "body": Card.optional(body),
      "image": Card.optional(image),
      "sentAt": Card.date(sentAt),
      "expiresAt": Card.date(expiresAt),
      "read": .bool(read),
      "actionPerformed": .bool(actionPerformed),
      "pinned": .bool(pinned),
      "seen": .bool(seen),
      "buttons": .array(buttons.map(\.json)),
      "customData": customData.map(JSONValue.object) ?? .null,
      "rowAction": rowAction.json,
    ]
    switch content {
    case .banner, .captioned: break
    case .classic(let avatar): object["avatar"] = avatar.json
    case .carousel(let slides):
      object["carousel"] = .array(
        slides.enumerated().map { offset, slide in
          [
            "image": .string(slide.image),
            "title": Card.optional(slide.title),
            "url": Card.optional(slide.url),
            "accessibilityLabel": .string(slide.accessibilityLabel(labels)),
            "position": .string(labels.position(index: offset, count: slides.count)),
          ]
        })
    case .video(let video):
      object["video"] = video.json(labels: labels)
    case .wallet(let wallet):
      object["wallet"] = [
        "pass": .string(wallet.pass),
        "image": Card.optional(wallet.image),
        "accessibilityIdentifier": .string(WalletPass.accessibilityIdentifier),
      ]
    }
    return .object(object)
  }

  private static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  private static func date(_ seconds: Int64?) -> JSONValue {
    seconds.flatMap(RFC3339.string(fromUnixSeconds:)).map(JSONValue.string) ?? .null
  }
}
