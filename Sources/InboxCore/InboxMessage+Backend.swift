import JSON

// MARK: - Backend inbox message

extension InboxMessage {
  /// Reads a message object of the backend's `getInboxMessages` reply.
  ///
  /// ```
  /// {"inbox_id": "avde1c792cd", "order": "59138176", "rt": "1460786760", "send_date": "1459758676",
  ///  "title": "New!", "text": "Hi!", "image": "https://cdn.example.com/i.png", "action_type": 1,
  ///  "action_params": "{\"l\":\"https://example.com\",\"u\":\"{\\\"pinned\\\":true}\"}",
  ///  "status": 1, "hash": "1C"}
  /// ```
  /// Numbers may arrive as strings (`"order": "59138176"`, `"status": "2"`) and `action_params` as a JSON
  /// string or an object. Refused: `inbox_id` not a non-blank string or integer, `text` not a string.
  /// Defaulted with a warning: missing or unreadable `order` (nil: status changes cannot be sent), `rt`
  /// (no expiry), `status` (delivered), `action_params` (empty), `send_date` (unknown, sorts oldest).
  /// `action_type` is not read: the row action derives from the params, as on Android and iOS.
  static func fromBackend(
    _ object: JSONObject, raw: JSONValue, context: IngestContext, warnings: inout [Warning]
  ) throws(IngestError) -> InboxMessage {
    guard let id = Lenient.identifier(object["inbox_id"]) else {
      let found = object["inbox_id"].map { describe($0) } ?? "missing"
      throw .notAnInboxMessage(
        reason: "backend message lacks required field inbox_id (\(found); a non-empty string or integer is required)")
    }
    guard let text = object["text"]?.stringValue else {
      let found = object["text"].map { describe($0) } ?? "missing"
      throw .notAnInboxMessage(
        reason: "backend message \(id) lacks required field text (\(found); a string is required)")
    }
    var diagnostics = Diagnostics(messageId: id)

    let order = Lenient.identifier(object["order"])
    if order == nil {
      diagnostics.warn(
        .invalidField,
        "order is \(object["order"].map { describe($0) } ?? "missing"); read/opened/deleted states of this message "
          + "cannot be sent to the backend")
    }
    let expiresAt = readSeconds(object["rt"], name: "rt", meaning: "the message never expires", &diagnostics)
    let sentAt = readSeconds(
      object["send_date"], name: "send_date", meaning: "send time unknown, sorts as oldest", &diagnostics,
      warnWhenMissing: false)
    var status = MessageStatus.delivered
    if let number = Lenient.int64(object["status"]) {
      status = MessageStatus(rawValue: number)
    } else {
      diagnostics.warn(
        .invalidField, "status is \(object["status"].map { describe($0) } ?? "missing"); treated as 1 (delivered)")
    }

    var params = JSONObject()
    switch Lenient.object(object["action_params"], name: "action_params") {
    case .absent: break
    case .object(let parsed): params = parsed
    case .invalid(let reason): diagnostics.warn(.invalidField, reason + "; the message has no action parameters")
    }
    let data = CustomData(actionParams: params, diagnostics: &diagnostics)
    let image = readImage(object["image"], name: "image", &diagnostics)

    warnings += diagnostics.warnings
    return InboxMessage(
      id: id, title: Lenient.text(object["title"]), body: text.isBlank ? nil : text, image: image,
      sentAt: sentAt, expiresAt: expiresAt, status: status, order: order,
      hash: Lenient.identifier(object["hash"]), data: data, source: .backend, ingestedAt: context.now, raw: raw)
  }

  // MARK: - Shared field readers

  /// Unix seconds from a number or a numeric string; a present but unreadable value warns.
  static func readSeconds(
    _ value: JSONValue?, name: String, meaning: String, _ diagnostics: inout Diagnostics,
    warnWhenMissing: Bool = true
  ) -> Int64? {
    if let seconds = Lenient.int64(value) { return seconds }
    let missing = value == nil || value == .null || value?.stringValue?.isBlank == true
    if !missing || warnWhenMissing {
      diagnostics.warn(.invalidField, "\(name) is \(value.map { describe($0) } ?? "missing"); \(meaning)")
    }
    return nil
  }

  /// An image URL (any scheme); a present value that is not a parseable URL is dropped with a warning.
  static func readImage(_ value: JSONValue?, name: String, _ diagnostics: inout Diagnostics) -> String? {
    guard let value, value != .null, value.stringValue?.isBlank != true else { return nil }
    if let url = ParseableURL(value, policy: .anyScheme) { return url.string }
    diagnostics.warn(.invalidField, "\(name) \(describe(value)) is not a parseable URL; the message has no image")
    return nil
  }

  /// `"abc"` (quoted) for strings, `an array` for other types: what a field held, for reasons.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return text.isEmpty ? "an empty string" : text.quotedForMessage
    case .null: return "null"
    default: return Lenient.article(value.typeName)
    }
  }
}
