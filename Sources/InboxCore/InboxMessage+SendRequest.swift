import JSON

// MARK: - Send-request notification object

extension InboxMessage {
  /// Reads one notification object of a `createMessage` request, as a preview of what devices will get.
  ///
  /// ```
  /// {"send_date": "now", "ios_title": "Summer sale", "content": "30% off everything",
  ///  "inbox_image": "https://cdn.example.com/inbox/summer.png", "inbox_days": 7,
  ///  "data": {"displayType": "captioned", "promo_id": "SUMMER2026"}, "link": "https://example.com/sale"}
  /// ```
  /// - Title: `ios_title`, else `title`; each a string or a language object (`{"en": "Hi", "de": "Hallo"}`,
  ///   `LocalizedText`: the resolver picks by `attributes.locale`; `title` is the default language's).
  /// - Body: `content`, a string or a language object. Image: `inbox_image`.
  /// - Platforms: `platforms`, the Messages API's codes (`TargetPlatform`).
  /// - Sent at: `send_date` `"now"` (or absent) is `context.now`; `"YYYY-MM-DD HH:mm"` is that UTC minute.
  /// - Expires: `inbox_date` (`YYYY-MM-DD`) at the end of that day UTC (23:59:59), else `inbox_days` days
  ///   after the send time. When both are given, `inbox_date` wins: it is the explicit one.
  /// - Action params are what a device receives: `{"u": <data>, "l": <link>}` (each only when present).
  /// - Id: `context.id`, else `StableID.derive(from:)`, a hash of the canonical payload.
  static func fromSendRequest(
    _ object: JSONObject, raw: JSONValue, context: IngestContext, warnings: inout [Warning]
  ) -> InboxMessage {
    let id = context.id.flatMap { $0.isBlank ? nil : $0 } ?? StableID.derive(from: raw)
    var diagnostics = Diagnostics(messageId: id)

    let localizedTitle =
      localized(object["ios_title"], name: "ios_title", &diagnostics)
      ?? localized(object["title"], name: "title", &diagnostics)
    let localizedBody = localized(object["content"], name: "content", &diagnostics)
    let platforms = TargetPlatform.read(object["platforms"], &diagnostics)
    let image = readImage(object["inbox_image"], name: "inbox_image", &diagnostics)

    var sentAt = context.now
    if let sendDate = object["send_date"], sendDate != .null {
      let text = sendDate.stringValue?.trimmingWhitespace()
      if text?.lowercased() == "now" {
        sentAt = context.now
      } else if let text, let parsed = RFC3339.dateAndMinute(text) {
        sentAt = parsed
      } else {
        diagnostics.warn(
          .invalidField, "send_date is \(describe(sendDate)), not \"now\" nor \"YYYY-MM-DD HH:mm\"; sent now",
          at: ["send_date"])
      }
    }

    var expiresAt: Int64?
    if let inboxDate = object["inbox_date"], inboxDate != .null {
      if let text = inboxDate.stringValue, let endOfDay = RFC3339.endOfDay(text.trimmingWhitespace()) {
        expiresAt = endOfDay
      } else {
        diagnostics.warn(
          .invalidField, "inbox_date is \(describe(inboxDate)), not a YYYY-MM-DD date; ignored", at: ["inbox_date"])
      }
    }
    if expiresAt == nil, let inboxDays = object["inbox_days"], inboxDays != .null {
      if let days = Lenient.int64(inboxDays), days >= 0, days <= 36_500 {
        expiresAt = RFC3339.adding(days * 86_400, to: sentAt)
      } else {
        diagnostics.warn(
          .invalidField, "inbox_days is \(describe(inboxDays)), not a number of days; ignored", at: ["inbox_days"])
      }
    }

    var params = JSONObject()
    if let data = object["data"], data != .null { params["u"] = data }
    if let link = Lenient.text(object["link"]) { params["l"] = .string(link) }
    let data = CustomData(actionParams: params, diagnostics: &diagnostics)

    warnings += diagnostics.warnings
    return InboxMessage(
      id: id, title: localizedTitle?.text(), body: localizedBody?.text(), image: image, sentAt: sentAt,
      expiresAt: expiresAt, status: .delivered, order: nil, hash: nil, data: data, source: .sendRequest,
      ingestedAt: context.now, raw: raw, localizedTitle: localizedTitle, localizedBody: localizedBody,
      platforms: platforms)
  }

  /// A string or a language object (`LocalizedText`); nil when absent, blank or of another type
  /// (which warns).
  private static func localized(_ value: JSONValue?, name: String, _ diagnostics: inout Diagnostics)
    -> LocalizedText?
  {
    guard let value, value != .null else { return nil }
    guard let text = LocalizedText(value) else {
      diagnostics.warn(
        .invalidField, "\(name) is \(describe(value)), not a string nor a language object; ignored", at: [name])
      return nil
    }
    return text.text() == nil ? nil : text
  }
}
