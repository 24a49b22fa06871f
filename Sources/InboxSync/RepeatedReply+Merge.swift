import InboxCore
import InboxStore

extension RepeatedReply {
  /// Merges a fetched inbox in `transaction`: plans and applies the merge, unless `candidate` (from
  /// `candidate(body:now:)`) holds and the store is still at its generation, when the plan is empty
  /// without reading a row. `finish` writes what every merge writes last. Returns the plan and what
  /// to `remember` once the transaction has committed.
  ///
  /// `remote` is the parsed reply; nil when the candidate let the caller skip reading it (it is read
  /// here if the store changed after all).
  public func merge(
    _ envelope: BackendEnvelope, remote: RemoteInbox?, candidate: Merged?, in transaction: SyncTransaction,
    now: Int64, limit: MessageSizeLimit = .standard, isCancelled: @escaping @Sendable () -> Bool = { false },
    finish: (SyncTransaction) throws -> Void
  ) throws -> (plan: MergePlan, merged: Merged?) {
    var plan = MergePlan()
    var merged = candidate
    if try merged == nil || transaction.generation() != merged?.generation {
      let remote = try remote ?? RemoteInbox.parse(envelope, now: now, limit: limit, isCancelled: isCancelled)
      plan = try Merge.plan(
        local: try transaction.messages(), pending: try transaction.pendingOutbox(), remote: remote, now: now,
        isCancelled: isCancelled)
      try plan.apply(to: transaction, now: now, isCancelled: isCancelled)
      let expiries = [Self.nextExpiry(of: remote, after: now), try transaction.nextExpiry(after: now)]
      merged = envelope.body.map {
        Merged(
          body: $0, baseURL: envelope.baseURL, generation: nil, mergedAt: now,
          nextExpiry: expiries.compactMap { $0 }.min(),
          warnings: remote.warnings, messageCount: remote.messages.count)
      }
    }
    try finish(transaction)
    merged?.generation = try transaction.generation()
    return (plan, merged)
  }
}
