import InboxCore
import InboxStore

extension RepeatedReply {
  /// Merges a fetched inbox in `transaction` (`ListMerge`), unless `candidate` (from
  /// `candidate(body:now:)`) holds and the store is still at its generation, when nothing is merged
  /// and no row read. `finish` writes what every merge writes last. Returns what the host sees
  /// change, the warnings of reading the reply, and what to `remember` once the transaction has
  /// committed.
  public func merge(
    _ envelope: BackendEnvelope, candidate: Merged?, in transaction: SyncTransaction, now: Int64,
    limit: MessageSizeLimit = .standard, isCancelled: @escaping @Sendable () -> Bool = { false },
    finish: (SyncTransaction) throws -> Void
  ) throws -> (plan: MergePlan, warnings: [Warning], merged: Merged?) {
    var plan = MergePlan()
    var merged = candidate
    var warnings = candidate?.warnings ?? []
    if try merged == nil || transaction.generation() != merged?.generation {
      let outcome = try ListMerge.run(envelope, in: transaction, now: now, limit: limit, isCancelled: isCancelled)
      (plan, warnings) = (outcome.changes, outcome.warnings)
      let expiries = [outcome.nextExpiry, try transaction.nextExpiry(after: now)]
      merged = envelope.body.map {
        Merged(
          body: $0, baseURL: envelope.baseURL, generation: nil, mergedAt: now,
          nextExpiry: expiries.compactMap { $0 }.min(), warnings: outcome.warnings,
          messageCount: outcome.messageCount)
      }
    }
    try finish(transaction)
    merged?.generation = try transaction.generation()
    return (plan, warnings, merged)
  }
}
