import JSON

/// What the double serves: the messages of one user's inbox as `getInboxMessages` lists them (in
/// order), and the ids the service reports deleted. Every user the double is asked about gets a
/// copy of it.
public struct BackendFixture: Sendable {
  /// Wire objects as the service lists them; an entry that is not a readable message (a test of
  /// the client's leniency) is listed verbatim and never changes.
  public var messages: [JSONValue]
  /// The ids the service reports deleted, as given (strings or numbers).
  public var deleted: [JSONValue]

  public struct Invalid: Error, CustomStringConvertible {
    public var description: String
  }

  public init(messages: [JSONValue] = [], deleted: [JSONValue] = []) {
    self.messages = messages
    self.deleted = deleted
  }

  /// Reads a fixture in any of its forms (docs/backend-double.md#fixtures): an array of entries;
  /// `{"messages": [...], "deleted": [...]}` (a reply's `response`); a whole recorded reply
  /// `{"status_code": 200, "response": {...}}`; or a createMessage request `{"request":
  /// {"notifications": [...]}}`. An entry with `inbox_id` is a backend message, served as given;
  /// a notification object (`content`, `ios_title`, `inbox_days`, ...; or `{"id", "age",
  /// "payload"}` as the sample feed keeps them) is turned into one as the service would
  /// (`SendRequestListing`), sent `now`.
  public static func read(_ value: JSONValue, now: Int64) throws(Invalid) -> BackendFixture {
    if let entries = value.arrayValue { return try fromEntries(entries, deleted: [], now: now) }
    guard let object = value.objectValue else {
      throw Invalid(description: "a fixture is a JSON array or object, not \(value.typeName)")
    }
    if let response = object["response"] { return try read(response, now: now) }
    if let request = object["request"] { return try read(request, now: now) }
    if let notifications = object["notifications"]?.arrayValue {
      return try fromEntries(notifications, deleted: [], now: now)
    }
    guard let messages = object["messages"]?.arrayValue else {
      throw Invalid(description: "a fixture object needs messages, notifications, request or response")
    }
    return try fromEntries(messages, deleted: object["deleted"]?.arrayValue ?? [], now: now)
  }

  private static func fromEntries(_ entries: [JSONValue], deleted: [JSONValue], now: Int64) throws(Invalid)
    -> BackendFixture
  {
    var listing = SendRequestListing(now: now)
    var messages: [JSONValue] = []
    for entry in entries {
      guard let object = entry.objectValue, object["inbox_id"] == nil else {
        messages.append(entry)
        continue
      }
      if let payload = object["payload"] {
        let sentAt = now - (object["age"]?.intValue ?? 0)
        messages.append(try listing.message(payload, id: object["id"]?.stringValue, sentAt: sentAt))
      } else if SendRequestListing.isNotification(object) {
        messages.append(try listing.message(entry, id: nil, sentAt: now))
      } else {
        messages.append(entry)
      }
    }
    return BackendFixture(messages: messages, deleted: deleted)
  }
}
