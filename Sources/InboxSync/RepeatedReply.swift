import InboxCore
import InboxStore
import Synchronization

/// The inbox reply last merged, to tell a sync whose reply and store are both as that merge left
/// them: its merge would change nothing, so it is not planned at all.
///
/// Why that holds: a merge is a function of the reply, the store's rows and queued changes, and
/// `now` (only through "expires at or before `now`"). Applying a plan and merging the same reply
/// again plans nothing: every listed message was written as the copy says (payload, `order`, both
/// statuses), re-sends and `order` fills were queued, and rows that had to leave are gone (see
/// `Merge`). So the merge can be skipped when
/// - the reply body is byte for byte the one merged,
/// - the store's generation is the one read when that merge committed (no write since, by this
///   process or another: not a local change, a push's outbox change, a purge or an account change),
/// - no expiry falls between that merge's `now` and this one (no stored row and no listed message
///   expires in `(mergedAt, now]`), and time did not go back.
/// The warnings of reading the reply are kept, to be told again as a full read would tell them.
/// A generation compares only with one of the same store: each `Synchronizer` keeps its own.
public final class RepeatedReply: Sendable {
  /// What one merge left behind.
  public struct Merged: Sendable {
    public var body: [UInt8]
    /// The reply's `base_url`, as sent.
    public var baseURL: String?
    /// Nil until read, last, in the merge's transaction.
    public var generation: StoreGeneration?
    public var mergedAt: Int64
    /// The earliest expiry after `mergedAt` among stored rows and listed messages; nil for none.
    public var nextExpiry: Int64?
    public var warnings: [Warning]
    public var messageCount: Int

    public init(
      body: [UInt8], baseURL: String?, generation: StoreGeneration?, mergedAt: Int64, nextExpiry: Int64?,
      warnings: [Warning],
      messageCount: Int
    ) {
      self.body = body
      self.baseURL = baseURL
      self.generation = generation
      self.mergedAt = mergedAt
      self.nextExpiry = nextExpiry
      self.warnings = warnings
      self.messageCount = messageCount
    }
  }

  /// Larger replies are not kept: holding them would cost more memory than their merge costs time.
  public static let maxBodyBytes = 16 * 1024 * 1024

  private let last = Mutex<Merged?>(nil)

  public init() {}

  /// The last merged reply, for `BackendCall.knownReply`: a repeat of it is not even parsed.
  public var lastReply: BackendEnvelope? {
    last.withLock { merged in
      merged.map { BackendEnvelope(response: nil, baseURL: $0.baseURL, body: $0.body) }
    }
  }

  /// The merge `body` repeats at `now`, when the reply and the time allow skipping it; the store's
  /// generation is still to be compared, inside the transaction.
  public func candidate(body: [UInt8]?, now: Int64) -> Merged? {
    guard let body else { return nil }
    return last.withLock { merged in
      guard let merged, merged.generation != nil, merged.body == body, now >= merged.mergedAt else { return nil }
      if let expiry = merged.nextExpiry, now >= expiry { return nil }
      return merged
    }
  }

  /// Records a committed merge (or a skipped one, with its new generation).
  public func remember(_ merged: Merged) {
    last.withLock { $0 = merged.body.count <= Self.maxBodyBytes ? merged : nil }
  }

  /// Runs `write` in `transaction`: bookkeeping that changes nothing a merge reads (the sync's own
  /// outcome). When the store was still at the last merge's generation, the memo moves to the
  /// generation after `write`, so the write alone does not make the next repeat a full merge. The
  /// transaction holds the write lock: no other process commits between the two readings.
  public func carrying(over transaction: SyncTransaction, _ write: (SyncTransaction) throws -> Void) throws {
    let before = try transaction.generation()
    try write(transaction)
    let after = try transaction.generation()
    last.withLock { merged in
      if merged?.generation == before { merged?.generation = after }
    }
  }

  /// Forgets the last merge (a discarded one leaves nothing to compare with).
  public func forget() { last.withLock { $0 = nil } }
}
