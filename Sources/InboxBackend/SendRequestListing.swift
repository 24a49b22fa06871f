import InboxCore
import JSON

/// createMessage notifications turned into backend messages as the service lists them: an
/// `inbox_id` (the one given, else the engine's derived id), an `order` from a counter past 2^53
/// (so every digit must survive the client), `rt` and `send_date` as unix seconds, the default
/// language's `title` and `text`, `inbox_image` as `image`, and `action_params` as a JSON string
/// holding `l` and `u` (the data, itself a JSON string), status 1 and a hash.
struct SendRequestListing {
  let now: Int64
  private var nextOrder: UInt64 = 50_000_000_000_000_001

  init(now: Int64) { self.now = now }

  static let notificationKeys: Set<String> = [
    "content", "ios_title", "title", "inbox_image", "inbox_days", "inbox_date", "send_date", "data", "link",
  ]

  static func isNotification(_ object: JSONObject) -> Bool {
    object.keys.contains { notificationKeys.contains($0) }
  }

  mutating func message(_ payload: JSONValue, id: String?, sentAt: Int64) throws(BackendFixture.Invalid)
    -> JSONValue
  {
    let message: InboxMessage
    do {
      message = try Engine.ingest(payload: payload, context: IngestContext(id: id, now: sentAt)).message
    } catch {
      throw BackendFixture.Invalid(description: "a notification cannot be listed: \(error)")
    }
    var params = JSONObject()
    if let link = message.actionParams["l"] { params["l"] = link }
    if let data = message.actionParams["u"] {
      params["u"] = data.stringValue.map(JSONValue.string) ?? .string(data.jsonString)
    }
    var wire: JSONObject = [
      "inbox_id": .string(message.id), "order": .string(String(nextOrder)),
      "send_date": .int(message.sentAt ?? sentAt), "title": .string(message.title ?? ""),
      "text": .string(message.body ?? ""), "image": .string(message.image ?? ""),
      "action_type": .int(params["l"] == nil ? 0 : 1), "action_params": .string(JSONValue.object(params).jsonString),
      "status": 1, "hash": .string(Self.hash(of: message.id)),
    ]
    if let expiresAt = message.expiresAt { wire["rt"] = .int(expiresAt) }
    nextOrder += 1
    return .object(wire)
  }

  /// A short stable hash, as the service's are (a few hex digits).
  static func hash(of id: String) -> String {
    String(StableID.derive(from: .string(id)).dropFirst(3).prefix(8)).uppercased()
  }
}
