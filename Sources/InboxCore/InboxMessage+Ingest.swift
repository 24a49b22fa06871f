import JSON

// MARK: - Shape detection

extension InboxMessage {
  /// Reads a payload in any of the three wire shapes, or refuses it when it is not an inbox message.
  ///
  /// The shape is chosen by the first key present (docs/engine.md#payload-shapes):
  /// 1. `inbox_id` -> a backend inbox message (`getInboxMessages`);
  /// 2. `pw_inbox` -> a push payload that carries inbox fields;
  /// 3. `inbox_image`, `inbox_date` or `inbox_days` -> a send-request notification object.
  /// Anything else throws `IngestError.notAnInboxMessage` naming the keys that were looked for. Problems in
  /// optional fields do not throw: they default and append a `Warning` to `warnings`.
  public static func ingest(
    _ payload: JSONValue, context: IngestContext, warnings: inout [Warning]
  ) throws(IngestError) -> InboxMessage {
    guard case .object(let object) = payload else {
      throw .notAnInboxMessage(
        reason: "payload is \(Lenient.article(payload.typeName)), not an object; an inbox message is a JSON object")
    }
    if object["inbox_id"] != nil {
      return try fromBackend(object, raw: payload, context: context, warnings: &warnings)
    }
    if object["pw_inbox"] != nil {
      return try fromPush(object, raw: payload, context: context, warnings: &warnings)
    }
    if object["inbox_image"] != nil || object["inbox_date"] != nil || object["inbox_days"] != nil {
      return fromSendRequest(object, raw: payload, context: context, warnings: &warnings)
    }
    var reason =
      "payload has none of the inbox keys: looked for inbox_id (backend message), pw_inbox (push payload), "
      + "inbox_image, inbox_date or inbox_days (send-request notification)"
    if object["request"] != nil || object["notifications"] != nil {
      reason += "; it looks like a createMessage request envelope: pass one object of request.notifications"
    }
    throw .notAnInboxMessage(reason: reason)
  }
}
