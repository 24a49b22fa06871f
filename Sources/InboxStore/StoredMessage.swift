import InboxCore
import JSON

/// A message as the store keeps it: the payload to re-read, and the state the engine layers over it.
public struct StoredMessage: Sendable, Hashable {
  public var id: String
  /// The payload exactly as received; re-ingesting it with `IngestContext(id:now: ingestedAt)` gives the message.
  public var payload: String
  public var ingestedAt: Int64
  public var source: String
  public var order: String?
  public var hash: String?
  public var pinned: Bool
  public var sentAt: Int64?
  public var expiresAt: Int64?
  /// What the backend last reported.
  public var serverStatus: MessageStatus
  /// max(server, local): what the host sees.
  public var status: MessageStatus
  public var readAt: Int64?
  public var openedAt: Int64?
  public var dismissedAt: Int64?
  /// When a host first reported it shown (`feed.seen`); the store's alone, never sent.
  public var seenAt: Int64?

  /// The local flags the resolver layers over the backend status.
  public var localState: LocalState { LocalState(read: readAt != nil, opened: openedAt != nil, seen: seenAt != nil) }

  public var isDismissed: Bool { dismissedAt != nil || status.isDeleted }

  /// Unseen: unread and never reported shown (what was read was seen).
  public var isUnseen: Bool { !status.isRead && seenAt == nil }

  /// Reads the stored payload back into the engine's model, with the effective status.
  public func message() throws -> InboxMessage {
    let raw = try JSONValue.parse(payload, options: JSONReadOptions(maxDepth: 256))
    var message = try Engine.ingest(payload: raw, context: IngestContext(id: id, now: ingestedAt)).message
    message.status = status
    return message
  }

  /// The feed-order key, in the terms `FeedOrder` compares.
  public var sortKey: FeedSortKey {
    FeedSortKey(pinned: pinned, read: status.isRead, sentAt: sentAt, id: id)
  }

  static let columns = "id, payload, " + stateColumns

  /// `columns` read from `messages` aliased `m` (a join with the tag index).
  static let joinedColumns = joined(columns)

  /// `columnsWithoutPayload` read from `messages` aliased `m`.
  static let joinedColumnsWithoutPayload = joined(columnsWithoutPayload)

  private static func joined(_ columns: String) -> String {
    columns.split(separator: ", ").map { $0.hasPrefix("'") ? String($0) : "m.\($0)" }.joined(separator: ", ")
  }

  /// `columns` with an empty payload in its place.
  static let columnsWithoutPayload = "id, '', " + stateColumns

  private static let stateColumns = stateColumnsBeforeSeen + ", seen_at"
  private static let stateColumnsBeforeSeen =
    "ingested_at, source, order_code, hash, pinned, sent_at, expires_at, server_status, status, read_at, opened_at, dismissed_at"

  /// `columns` as a store before version 9 has them: no `seen_at` (read as null).
  static let columnsBeforeSeen = "id, payload, " + stateColumnsBeforeSeen + ", NULL"

  init(row: Statement) {
    id = row.text(0) ?? ""
    payload = row.text(1) ?? "null"
    ingestedAt = row.int(2)
    source = row.text(3) ?? ""
    order = row.text(4)
    hash = row.text(5)
    pinned = row.int(6) != 0
    sentAt = row.optionalInt(7)
    expiresAt = row.optionalInt(8)
    serverStatus = MessageStatus(rawValue: row.int(9))
    status = MessageStatus(rawValue: row.int(10))
    readAt = row.optionalInt(11)
    openedAt = row.optionalInt(12)
    dismissedAt = row.optionalInt(13)
    seenAt = row.optionalInt(14)
  }
}
