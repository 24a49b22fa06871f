import InboxCore
import JSON
import Testing

/// The Card wire shape (docs/protocol.md#card): the same members on every card, plus exactly one kind member.
@Suite struct CardJSONTests {
  static let common = [
    "id", "kind", "requestedKind", "degraded", "title", "body", "image", "sentAt", "expiresAt", "read",
    "actionPerformed", "pinned", "seen", "buttons", "customData", "rowAction",
  ]

  private func card(_ data: JSONValue, image: String? = "https://cdn.example.com/i.png", title: String? = "T")
    throws -> Card
  {
    var payload: JSONObject = ["inbox_days": 1, "content": "B", "data": data]
    if let image { payload["inbox_image"] = .string(image) }
    if let title { payload["ios_title"] = .string(title) }
    return try Engine.resolve(
      payload: .object(payload), context: IngestContext(id: "j", now: 0), attributes: Attributes(platform: "ios")
    ).card
  }

  /// Each kind has the common members in order, then its own member (none for banner and captioned).
  @Test(
    arguments: [
      (["displayType": "banner"], "banner", nil),
      (["displayType": "captioned"], "captioned", nil),
      (["displayType": "classic"], "classic", "avatar"),
      (["displayType": "carousel", "carousel": [["image": "https://x.example/1.jpg"]]], "carousel", "carousel"),
      (["displayType": "video", "video": ["url": "https://x.example/v.mp4"]], "video", "video"),
      (["displayType": "wallet", "wallet": "https://x.example/p.pkpass"], "wallet", "wallet"),
    ] as [(JSONValue, String, String?)])
  func membersPerKind(data: JSONValue, kind: String, extra: String?) throws {
    let json = try card(data).json
    #expect(json["kind"] == .string(kind))
    #expect(json.objectValue?.keys == Self.common + (extra.map { [$0] } ?? []))
    #expect(json["buttons"] == .array([]))
  }

  /// Absent values are null, dates RFC 3339, and a degradation is `{from, reason}`.
  @Test func nullsAndDegradation() throws {
    let json = try card(["displayType": "video"], image: nil, title: nil).json
    #expect(json["title"] == .null)
    #expect(json["image"] == .null)
    #expect(json["sentAt"] == "1970-01-01T00:00:00Z")
    #expect(json["expiresAt"] == "1970-01-02T00:00:00Z")
    #expect(json["customData"] == ["displayType": "video"])
    #expect(
      json["degraded"]
        == ["from": "video", "reason": "video needs data.video, an object with an http(s) url; data.video is missing"])
    #expect(json["avatar"] == ["initial": "B", "color": .string(Avatar.color(forID: "j"))])
  }

  /// Local state raises read/actionPerformed above the backend status, never lowers them.
  @Test(
    arguments: [
      (1, nil, false, false), (2, nil, true, false), (3, nil, true, true), (1, LocalState(read: true), true, false),
      (1, LocalState(opened: true), true, true), (3, LocalState(), true, true),
    ] as [(Int64, LocalState?, Bool, Bool)])
  func readState(status: Int64, state: LocalState?, read: Bool, actionPerformed: Bool) throws {
    let payload: JSONValue = ["inbox_id": "s", "order": "1", "rt": 1, "status": .int(status), "text": "t"]
    let card = try Engine.resolve(payload: payload, context: IngestContext(now: 0), state: state).card
    #expect(card.read == read)
    #expect(card.actionPerformed == actionPerformed)
    #expect(card.json["read"] == .bool(read))
  }

  /// Warnings encode every field, kinds null when none was chosen yet.
  @Test func warningJSON() throws {
    let resolution = try Engine.resolve(
      payload: ["pw_inbox": "w", "u": "nope", "aps": ["alert": "hi"]], context: IngestContext(now: 0),
      attributes: Attributes(forceCellKind: .banner))
    #expect(resolution.warnings.map(\.code) == [.invalidCustomData, .degraded])
    let first = resolution.warnings[0]
    #expect(first.json.objectValue?.keys == ["messageId", "requestedKind", "usedKind", "reason", "code"])
    #expect(first.json["messageId"] == "w")
    #expect(first.json["requestedKind"] == .null && first.json["usedKind"] == .null)
    #expect(first.json["code"] == "invalidCustomData")
    #expect(first.json["reason"] == .string(first.reason))
    #expect(first.reason.hasPrefix("custom data u is a string that is not valid JSON ("))
    #expect(first.reason.hasSuffix("); the message has no custom data"))
    #expect(resolution.warnings[1].json["requestedKind"] == "banner")
    #expect(resolution.warnings[1].json["usedKind"] == "classic")
    #expect(
      resolution.warnings[1].description
        == "message w [degraded] asked for banner, used classic: banner needs an image (inbox_image, data.image, b or attachment); "
        + "the message has none; shown as classic")
  }
}
