import JSON

// MARK: - Push payload with inbox fields

extension InboxMessage {
  /// Reads a received push that carries inbox fields; the whole payload becomes the action params.
  ///
  /// iOS:
  /// ```
  /// {"aps": {"alert": {"title": "Sale", "body": "30% off"}}, "pw_inbox": "abc123",
  ///  "inbox_params": {"rt": "1767225600", "image": "https://cdn.example.com/i.png"},
  ///  "u": "{\"displayType\":\"captioned\"}", "l": "https://example.com", "p": "1C"}
  /// ```
  /// Android (title in `header`, body in `title`, `inbox_params` as a JSON string, send time in ms):
  /// ```
  /// {"header": "Sale", "title": "30% off", "pw_inbox": "abc123",
  ///  "inbox_params": "{\"rt\":\"1767225600\",\"image\":\"https://cdn.example.com/i.png\"}",
  ///  "google.sent_time": 1767139200000, "p": "1C"}
  /// ```
  /// Title: `aps.alert.title`, else `header`. Body: `aps.alert.body`, else a string `aps.alert`, else the
  /// root `title` (Android), else the root `body` (web). `inbox_params.rt` is unix seconds or `YYYY-MM-DD`
  /// (iOS; the end of that day UTC); without it the message does not expire. Sent at `google.sent_time`
  /// (ms) when present, else `context.now`. Hash: `p`. Refused only when `pw_inbox` is blank or not an id.
  static func fromPush(
    _ object: JSONObject, raw: JSONValue, context: IngestContext, warnings: inout [Warning]
  ) throws(IngestError) -> InboxMessage {
    guard let id = Lenient.identifier(object["pw_inbox"]) else {
      let found = object["pw_inbox"].map { describe($0) } ?? "missing"
      throw .notAnInboxMessage(reason: "push payload's pw_inbox is \(found); expected a non-empty inbox id")
    }
    var diagnostics = Diagnostics(messageId: id)

    var inboxParams = JSONObject()
    switch Lenient.object(object["inbox_params"], name: "inbox_params") {
    case .absent: break
    case .object(let parsed): inboxParams = parsed
    case .invalid(let reason): diagnostics.warn(.invalidField, reason + "; no expiry and no image")
    }
    var expiresAt: Int64?
    if let rt = inboxParams["rt"], rt != .null {
      if let seconds = Lenient.int64(rt) {
        expiresAt = seconds
      } else if let text = rt.stringValue, let endOfDay = RFC3339.endOfDay(text.trimmingWhitespace()) {
        expiresAt = endOfDay
      } else {
        diagnostics.warn(
          .invalidField,
          "inbox_params.rt is \(describe(rt)), not unix seconds nor YYYY-MM-DD; the message never expires"
        )
      }
    }
    let image = readImage(inboxParams["image"], name: "inbox_params.image", &diagnostics)

    let alert = object["aps"]?["alert"]
    let title = Lenient.text(alert?["title"]) ?? Lenient.text(object["header"])
    let body =
      Lenient.text(alert?["body"]) ?? Lenient.text(alert) ?? Lenient.text(object["title"])
      ?? Lenient.text(object["body"])

    var sentAt = context.now
    if let sentTime = object["google.sent_time"] {
      if let milliseconds = Lenient.int64(sentTime) {
        sentAt = milliseconds / 1000
      } else {
        diagnostics.warn(.invalidField, "google.sent_time is \(describe(sentTime)), not milliseconds; sent now")
      }
    }
    let data = CustomData(actionParams: object, diagnostics: &diagnostics)

    warnings += diagnostics.warnings
    return InboxMessage(
      id: id, title: title, body: body, image: image, sentAt: sentAt, expiresAt: expiresAt, status: .delivered,
      order: nil, hash: Lenient.identifier(object["p"]), data: data, source: .push, ingestedAt: context.now,
      raw: raw)
  }
}
