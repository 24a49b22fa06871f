/// The largest payload one message may have, in bytes of its compact JSON text: the unit the store
/// keeps and a page carries. A message past it is not stored (ingest refuses it, a sync skips it with
/// a warning) and a stored one past it (kept from before the limit) is left out of pages with a
/// warning, so one card cannot fill a reply. 256 KiB holds the richest real card many times over:
/// InboxKit cards are a title, a body, a few URLs and at most five slides and three buttons.
public struct MessageSizeLimit: Sendable, Hashable {
  public var bytes: Int

  public init(bytes: Int) { self.bytes = bytes }

  /// 256 KiB (`--max-message-bytes`).
  public static let standard = MessageSizeLimit(bytes: 256 * 1024)

  /// Whether a payload of `size` bytes is within the limit.
  public func admits(_ size: Int) -> Bool { size <= bytes }

  /// Why a payload of `size` bytes is refused, for a warning or an error.
  public func reason(size: Int) -> String {
    "its payload is \(size) bytes, over the \(bytes)-byte limit per message (--max-message-bytes)"
  }
}

extension Warning.Code {
  /// A stored message was left out of a page: its payload is past `--max-message-bytes` or its card
  /// is larger than a page may hold. It stays in the store.
  public static let messageOmitted = Warning.Code(rawValue: "messageOmitted")
}
