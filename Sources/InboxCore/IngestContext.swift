/// What the caller knows about a payload that the payload itself may not carry: an id and the time.
///
/// The engine has no clock; `now` is the only source of time it sees.
public struct IngestContext: Sendable, Hashable {
  /// The message id for a send-request notification object (which has none of its own).
  ///
  /// Used only for send-request objects: backend messages keep their `inbox_id` and pushes their
  /// `pw_inbox`. When nil or blank, the id is derived from the payload (see `StableID`).
  public var id: String?
  /// The current time in unix seconds: the send time of a push or of a `send_date: "now"` request.
  public var now: Int64

  /// Builds a context.
  public init(id: String? = nil, now: Int64) {
    self.id = id
    self.now = now
  }
}
