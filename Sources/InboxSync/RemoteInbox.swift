import InboxCore
import JSON

/// The `response` of `getInboxMessages`, read as leniently as the SDKs read it (research §1.3).
///
/// ```
/// {"messages": [{"inbox_id": "avde1c792cd", "order": "59138176", "rt": "1460786760", ...}],
///  "deleted": ["old1", "old2"], "next": "59138176", "new_inbox": 3}
/// ```
/// - `messages` must be an array: it is the authoritative list, so a reply without one is malformed
///   (merging "no list" as "empty list" would empty the inbox).
/// - Each message goes through the engine (`Engine.ingest`): numbers as strings and `action_params` as
///   a string or an object are accepted there. A message the engine refuses (no `inbox_id`, no `text`)
///   or without an `order` (its status changes could never be sent) is skipped with a warning, as the
///   SDKs drop it; when its `inbox_id` is readable, the local copy is left as it is rather than removed.
///   So is a message past the per-message size limit (`MessageSizeLimit`).
/// - `deleted` lists ids removed from the Control Panel (strings or integers; other items are ignored
///   with a warning). `next` is kept as an opaque cursor.
public struct RemoteInbox: Sendable, Hashable {
  /// The readable messages, in the reply's order (a repeated `inbox_id` keeps its first copy).
  public var messages: [InboxMessage]
  /// The compact text of each of `messages`, in the same order: the payload the store keeps.
  public var payloads: [String]
  /// Ids of listed messages that were skipped as unreadable.
  public var unreadableIDs: Set<String>
  /// Ids the service deleted.
  public var deleted: [String]
  /// The reply's `next` cursor, as sent.
  public var next: String?
  /// What was skipped or defaulted, one warning each.
  public var warnings: [Warning]

  public init(
    messages: [InboxMessage] = [], payloads: [String]? = nil, unreadableIDs: Set<String> = [], deleted: [String] = [],
    next: String? = nil,
    warnings: [Warning] = []
  ) {
    self.messages = messages
    self.payloads = payloads ?? messages.map(\.raw.jsonString)
    self.unreadableIDs = unreadableIDs
    self.deleted = deleted
    self.next = next
    self.warnings = warnings
  }

  /// The compact text of `messages[offset]`: the one parsed with it, or written out if `messages`
  /// was changed since.
  public func payload(at offset: Int) -> String {
    offset < payloads.count && offset < messages.count && payloads.count == messages.count
      ? payloads[offset] : messages[offset].raw.jsonString
  }

  /// The warning code of a message the sync skipped.
  public static let skipped = Warning.Code(rawValue: "messageSkipped")

  /// Reads an envelope's `response`, keeping the payload texts it was parsed with.
  public static func parse(
    _ envelope: BackendEnvelope, now: Int64, limit: MessageSizeLimit = .standard,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(SyncError) -> RemoteInbox {
    let envelope = try envelope.parsed()
    return try parse(
      envelope.response, texts: envelope.messageTexts, now: now, limit: limit, isCancelled: isCancelled)
  }

  /// Reads the `response` member; `now` is the ingest time given to every message. `texts`, when
  /// given, is the compact text of each item of `messages` (else each is written out here). A
  /// message whose text is past `limit` is skipped like an unreadable one. `isCancelled` is asked
  /// between batches of messages read (a cancel throws `.cancelled`).
  public static func parse(
    _ response: JSONValue?, texts: [String]? = nil, now: Int64, limit: MessageSizeLimit = .standard,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(SyncError) -> RemoteInbox {
    let method = BackendMethod.getInboxMessages.rawValue
    guard let response else {
      throw .malformedReply(method: method, path: "response", reason: "response is missing or null")
    }
    guard case .object(let object) = response else {
      throw .malformedReply(method: method, path: "response", reason: "response is \(response.typeName), not an object")
    }
    guard case .array(let items)? = object["messages"] else {
      let found = object["messages"].map { $0.typeName } ?? "missing"
      throw .malformedReply(
        method: method, path: "response.messages", reason: "messages is \(found); an array is required")
    }
    var inbox = RemoteInbox()
    let texts = texts?.count == items.count ? texts ?? [] : items.map(\.jsonString)
    let oversized = texts.map { !limit.admits($0.utf8.count) }
    let readings = read(items, now: now, skipping: oversized, isCancelled: isCancelled)
    if isCancelled() { throw .cancelled }
    var seen = Set<String>()
    for (index, item) in items.enumerated() {
      let place = "response.messages[\(index)]"
      guard case .object(let fields) = item else {
        inbox.skip(place, "it is \(item.typeName), not an object")
        continue
      }
      let id = identifier(fields["inbox_id"])
      guard let id else {
        inbox.skip(place, "it has no inbox_id")
        continue
      }
      guard !seen.contains(id) else {
        inbox.skip(id, "inbox_id \(id) is listed twice; the first copy is kept")
        continue
      }
      seen.insert(id)
      guard !oversized[index] else {
        inbox.unreadableIDs.insert(id)
        inbox.skip(id, limit.reason(size: texts[index].utf8.count))
        continue
      }
      let message: InboxMessage
      let warnings: [Warning]
      switch readings[index] {
      case .success(let read): (message, warnings) = (read.message, read.warnings)
      case .failure(let error):
        inbox.unreadableIDs.insert(id)
        inbox.skip(id, error.reason)
        continue
      }
      guard message.order != nil else {
        inbox.unreadableIDs.insert(id)
        inbox.skip(id, "it has no readable order, so its status changes could not be sent")
        continue
      }
      inbox.warnings += warnings
      inbox.messages.append(message)
      inbox.payloads.append(texts[index])
    }
    switch object["deleted"] {
    case nil, .null?: break
    case .array(let ids)?:
      for (index, value) in ids.enumerated() {
        if let id = identifier(value) {
          inbox.deleted.append(id)
        } else {
          inbox.skip("response.deleted[\(index)]", "a deleted id must be a string or an integer")
        }
      }
    case let other?:
      inbox.skip("response.deleted", "deleted is \(other.typeName), not an array; ignored")
    }
    inbox.next = object["next"].flatMap(identifier)
    return inbox
  }

  private mutating func skip(_ subject: String, _ reason: String) {
    warnings.append(Warning(messageId: subject, reason: "skipped by sync: " + reason, code: Self.skipped))
  }

  /// A non-blank string (trimmed) or an integer, as the engine reads ids.
  private static func identifier(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text)?:
      let trimmed = text.trimmingWhitespaceForID()
      return trimmed.isEmpty ? nil : trimmed
    case .int(let number)?: return String(number)
    case .double?: return value?.intValue.map { String($0) }
    default: return nil
    }
  }
}

extension String {
  fileprivate func trimmingWhitespaceForID() -> String {
    if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
      return self  // the usual id, told from its bytes without reading characters
    }
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
