import JSON

/// An opaque position in the journal (`Journal`): the store's id and the number of the last change
/// read, as base64url of a small JSON array with a checksum, as `FeedCursor` is. A cursor from
/// another store (the file deleted and made again) cannot resume here: it is told as too old, so
/// the host lists again; a cursor that is not one is refused as a bad param.
public struct JournalCursor: Sendable, Hashable {
  public var storeID: String
  public var seq: Int64

  public init(storeID: String, seq: Int64) {
    self.storeID = storeID
    self.seq = seq
  }

  private static let version: Int64 = 1

  public var token: String {
    let body = JSONValue.array([.int(Self.version), .string(storeID), .int(seq)]).jsonString
    let sealed = JSONValue.array([.string(body), .string(FeedCursor.checksum(body))]).jsonString
    return Base64URL.encode(Array(sealed.utf8))
  }

  /// Reads a cursor `token` made, whatever its store (the caller compares `storeID`).
  public init(token: String) throws(FeedCursor.Invalid) {
    guard token.count <= 1024, let data = Base64URL.decode(token),
      let sealed = try? JSONValue.parse(bytes: data), let parts = sealed.arrayValue, parts.count == 2,
      let body = parts[0].stringValue, parts[1].stringValue == FeedCursor.checksum(body),
      let fields = (try? JSONValue.parse(body))?.arrayValue, fields.count == 3, fields[0].intValue == Self.version,
      let storeID = fields[1].stringValue, let seq = fields[2].intValue, seq >= 0
    else { throw FeedCursor.Invalid(reason: "not a changes cursor this server made (malformed or altered)") }
    self.init(storeID: storeID, seq: seq)
  }
}
