import InboxCore
import JSON

/// The `response` of `getInboxMessages`, read as leniently as the SDKs read it (docs/sync.md#the-backend-contract).
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

  /// Reads an envelope's `response`, with the payload texts its items are dumped as.
  public static func parse(
    _ envelope: BackendEnvelope, now: Int64, limit: MessageSizeLimit = .standard,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(SyncError) -> RemoteInbox {
    try read(try Listing(try envelope.parsed()), now: now, limit: limit, isCancelled: isCancelled)
  }

  /// Reads the `response` member; `now` is the ingest time given to every message. A message whose
  /// text is past `limit` is skipped like an unreadable one. `isCancelled` is asked between
  /// batches of messages read (a cancel throws `.cancelled`).
  public static func parse(
    _ response: JSONValue?, now: Int64, limit: MessageSizeLimit = .standard,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(SyncError) -> RemoteInbox {
    try read(try Listing(response: response, items: nil), now: now, limit: limit, isCancelled: isCancelled)
  }

  /// Every listed message read, in order.
  private static func read(
    _ listing: Listing, now: Int64, limit: MessageSizeLimit, isCancelled: @Sendable () -> Bool
  ) throws(SyncError) -> RemoteInbox {
    var reader = Reader(listing.items, now: now, limit: limit)
    var inbox = RemoteInbox(deleted: listing.deleted, next: listing.next)
    for index in 0..<listing.items.count {
      if index % Reader.itemsPerCheck == Reader.itemsPerCheck - 1, isCancelled() { throw .cancelled }
      guard let (message, payload) = try reader.read(index) else { continue }
      inbox.messages.append(message)
      inbox.payloads.append(payload)
    }
    if isCancelled() { throw .cancelled }
    inbox.unreadableIDs = reader.unreadableIDs
    inbox.warnings = reader.warnings + listing.warnings
    return inbox
  }

  /// A non-blank string (trimmed) or an integer, as the engine reads ids.
  static func identifier(_ value: JSONValue?) -> String? {
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
  func trimmingWhitespaceForID() -> String {
    if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
      return self  // the usual id, told from its bytes without reading characters
    }
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
