import InboxCore
import InboxStore

/// What a sync changes in the store, decided by `Merge.plan` and applied by `apply(to:now:)` in the
/// transaction the local state was read in.
public struct MergePlan: Sendable, Hashable {
  /// One message row to write.
  public struct Write: Sendable, Hashable {
    public var id: String
    /// The backend copy to store as the payload; nil keeps the stored payload (a tombstone, or a message
    /// whose copy did not change).
    public var message: InboxMessage?
    /// `message`'s compact text, stored as the payload.
    public var payload: String?
    public var status: MessageStatus
    public var serverStatus: MessageStatus
    /// The backend `order` and `hash`, filled into a row that had none.
    public var order: String?
    public var hash: String?

    public init(
      id: String, message: InboxMessage? = nil, payload: String? = nil, status: MessageStatus,
      serverStatus: MessageStatus, order: String? = nil, hash: String? = nil
    ) {
      self.id = id
      self.message = message
      self.payload = message.map { payload ?? $0.raw.jsonString }
      self.status = status
      self.serverStatus = serverStatus
      self.order = order ?? message?.order
      self.hash = hash ?? message?.hash
    }
  }

  /// A status change to queue (again) because the local status is ahead of the backend's.
  public struct Resend: Sendable, Hashable {
    public var messageID: String
    public var status: MessageStatus
    public var order: String
    public var hash: String?

    public init(messageID: String, status: MessageStatus, order: String, hash: String?) {
      self.messageID = messageID
      self.status = status
      self.order = order
      self.hash = hash
    }
  }

  /// An `order` for the queued changes of a message that had none (a push-only message the backend
  /// now lists).
  public struct OrderFill: Sendable, Hashable {
    public var messageID: String
    public var order: String
    public var hash: String?

    public init(messageID: String, order: String, hash: String?) {
      self.messageID = messageID
      self.order = order
      self.hash = hash
    }
  }

  public var writes: [Write] = []
  /// Rows to delete.
  public var deletions: [String] = []
  public var resends: [Resend] = []
  public var orderFills: [OrderFill] = []
  /// Messages the service deleted before it ever listed them: their queued changes never got an
  /// `order`, never can, and leave the outbox.
  public var unsendable: [String] = []

  /// What the host sees change (`feed.changed`, the `feed.sync` result), each id once.
  public var added: [String] = []
  public var updated: [String] = []
  /// Visible messages that left: not listed any more, deleted by the service or by the user elsewhere.
  public var removed: [String] = []
  /// Messages that left because they expired.
  public var expired: [String] = []

  public init() {}

  /// Rows written between two questions to `isCancelled`.
  static let rowsPerCheck = 1024

  /// Appends the part of the plan a later step decided (`Merge.Steps`).
  mutating func append(_ step: MergePlan) {
    writes += step.writes
    deletions += step.deletions
    resends += step.resends
    orderFills += step.orderFills
    unsendable += step.unsendable
    appendChanges(of: step)
  }

  /// Appends only what the host sees change in `step` (its rows are written already).
  mutating func appendChanges(of step: MergePlan) {
    added += step.added
    updated += step.updated
    removed += step.removed
    expired += step.expired
  }

  /// Whether applying the plan changes nothing.
  public var isEmpty: Bool {
    writes.isEmpty && deletions.isEmpty && resends.isEmpty && orderFills.isEmpty && unsendable.isEmpty
  }

  /// Writes the plan; call it inside `InboxStore.syncTransaction`, with the state `Merge.plan` read there.
  /// `isCancelled` is asked between batches of rows: a cancel throws `SyncError.cancelled`, and the
  /// transaction it is in rolls back, so nothing is half-merged.
  public func apply(to transaction: SyncTransaction, now: Int64, isCancelled: () -> Bool = { false }) throws {
    for id in deletions { try transaction.delete(id: id) }
    for (offset, write) in writes.enumerated() {
      if offset % Self.rowsPerCheck == Self.rowsPerCheck - 1, isCancelled() { throw SyncError.cancelled }
      if let message = write.message {
        try transaction.upsert(
          message, payload: write.payload, status: write.status, serverStatus: write.serverStatus)
      } else {
        try transaction.setState(
          id: write.id, status: write.status, serverStatus: write.serverStatus, order: write.order, hash: write.hash)
      }
    }
    for id in unsendable { try transaction.dropUnsendable(messageID: id) }
    for fill in orderFills { try transaction.fillOutbox(messageID: fill.messageID, order: fill.order, hash: fill.hash) }
    for resend in resends {
      try transaction.enqueue(
        messageID: resend.messageID, status: resend.status, order: resend.order, hash: resend.hash, now: now)
    }
  }
}
