import JSON

/// An opaque position in the feed: the sort key of the last message of a page.
///
/// Keyset paging resumes strictly after that key, so messages inserted or dismissed between pages
/// never make another appear twice or be skipped. The wire form is base64url of a small JSON array
/// carrying a version, the store's id (a cursor from another store is refused), the order it was
/// made for, the custom-data filter it was made under (`CustomDataFilter.fingerprint`, empty for
/// none: a cursor is refused under another filter, whose feed it is no position in), and a
/// checksum (a hand-edited cursor is refused).
public struct FeedCursor: Sendable, Hashable {
  public var storeID: String
  public var unreadFirst: Bool
  public var pinned: Bool
  public var unread: Bool
  public var sortTime: Int64
  public var id: String
  /// The filter's fingerprint; empty for the whole feed.
  public var filter: String

  public init(
    storeID: String, unreadFirst: Bool, pinned: Bool, unread: Bool, sortTime: Int64, id: String, filter: String = ""
  ) {
    self.storeID = storeID
    self.unreadFirst = unreadFirst
    self.pinned = pinned
    self.unread = unread
    self.sortTime = sortTime
    self.id = id
    self.filter = filter
  }

  /// Why a cursor string was refused.
  public struct Invalid: Error, Sendable, Hashable {
    public var reason: String
  }

  private static let version: Int64 = 1

  public var token: String {
    let fields: [JSONValue] = [
      .int(Self.version), .string(storeID), .bool(unreadFirst), .bool(pinned), .bool(unread), .int(sortTime),
      .string(id), .string(filter),
    ]
    let body = JSONValue.array(fields).jsonString
    let sealed = JSONValue.array([.string(body), .string(Self.checksum(body))]).jsonString
    return Base64URL.encode(Array(sealed.utf8))
  }

  /// Reads a cursor made by `token` for this store, order and filter (a cursor made before filters
  /// existed has seven fields and belongs to the whole feed).
  public init(token: String, storeID: String, unreadFirst: Bool, filter: String = "") throws(Invalid) {
    guard token.count <= 4096, let data = Base64URL.decode(token),
      let sealed = try? JSONValue.parse(bytes: data), let parts = sealed.arrayValue, parts.count == 2,
      let body = parts[0].stringValue, parts[1].stringValue == Self.checksum(body),
      let fields = (try? JSONValue.parse(body))?.arrayValue, (7...8).contains(fields.count)
    else { throw Invalid(reason: "not a cursor this server made (malformed or altered)") }
    guard fields[0].intValue == Self.version else { throw Invalid(reason: "cursor version is not supported") }
    guard fields[1].stringValue == storeID else { throw Invalid(reason: "cursor belongs to another store") }
    guard let madeUnreadFirst = fields[2].boolValue, let pinned = fields[3].boolValue,
      let unread = fields[4].boolValue, let sortTime = fields[5].intValue, let id = fields[6].stringValue
    else { throw Invalid(reason: "not a cursor this server made (malformed or altered)") }
    guard madeUnreadFirst == unreadFirst else {
      throw Invalid(reason: "cursor was made for another feed order (unreadFirst changed); list again without a cursor")
    }
    guard (fields.count == 8 ? fields[7].stringValue : "") == filter else {
      throw Invalid(
        reason: "cursor was made under another customData filter; list again without a cursor, or with that filter")
    }
    self.init(
      storeID: storeID, unreadFirst: unreadFirst, pinned: pinned, unread: unread, sortTime: sortTime, id: id,
      filter: filter)
  }

  /// FNV-1a over the body: detects edits and truncation, not an adversary (cursors grant nothing).
  static func checksum(_ body: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 36)
  }
}
