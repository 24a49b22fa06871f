import InboxCore
import InboxStore

/// The merge of a fetched list in its transaction, one batch of listed messages at a time: each is
/// parsed from its span of the reply's text, planned (`Merge.Steps`) and written while the next
/// batch is read beside it (`ReadAhead`), so a sync holds two batches' values beside the reply
/// rather than the whole list. Ids are
/// all it keeps of the messages written: the ones the host sees change, and those the rule "the list
/// is authoritative" needs at the end. It is one transaction still: a cancel or an error rolls
/// every row back.
enum ListMerge {
  /// What a merge did, besides its writes.
  struct Outcome {
    /// What the host sees change; rows are written already (the plan has none).
    var changes = MergePlan()
    /// What reading the list skipped or defaulted.
    var warnings: [Warning] = []
    /// Messages read and merged.
    var messageCount = 0
    /// The earliest expiry after `now` of a listed message.
    var nextExpiry: Int64?
  }

  /// Reads and merges `envelope`'s list in `transaction`; `isCancelled` is asked between batches of
  /// messages (a cancel throws `SyncError.cancelled`).
  static func run(
    _ envelope: BackendEnvelope, in transaction: SyncTransaction, now: Int64, limit: MessageSizeLimit,
    isCancelled: () -> Bool
  ) throws -> Outcome {
    let listing = try RemoteInbox.Listing(try envelope.parsed())
    // The stored payloads are read one at a time, for the listed messages stored already.
    var steps = Merge.Steps(
      local: try transaction.messages(payloads: false), pending: try transaction.pendingOutbox(),
      deleted: listing.deleted, now: now
    ) { row in
      var complete = row
      complete.payload = try transaction.payload(of: row.id) ?? ""
      return complete
    }
    var outcome = Outcome()
    func apply(_ step: MergePlan) throws {
      try step.apply(to: transaction, now: now)
      outcome.changes.appendChanges(of: step)
    }
    try apply(steps.start())
    let ahead = ReadAhead(listing.items, now: now, limit: limit)
    var batch = try ahead.batch()
    while !batch.isEmpty || ahead.hasMore {
      if isCancelled() { throw SyncError.cancelled }
      batch = try ahead.beside { [batch] in
        for (message, payload) in batch {
          outcome.messageCount += 1
          if let expiry = message.expiresAt, expiry > now {
            outcome.nextExpiry = min(outcome.nextExpiry ?? expiry, expiry)
          }
          try apply(try steps.merge(message, payload: payload))
        }
      }
    }
    if isCancelled() { throw SyncError.cancelled }
    try apply(steps.finish(unreadable: ahead.unreadableIDs))
    outcome.warnings = ahead.warnings + listing.warnings
    return outcome
  }
}
