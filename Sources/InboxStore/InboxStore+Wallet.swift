/// What the host reported of a message's Apple Wallet sheet (schema version 8).
public struct WalletRecord: Sendable, Hashable {
  public enum Outcome: String, Sendable, CaseIterable {
    /// The pass is in the user's Wallet (`didAddWalletPassFor`).
    case added
    /// Adding it failed (`didFailToAddWalletPassFor`), for `reason`.
    case failed
  }

  public var id: String
  public var outcome: Outcome
  /// Why adding failed, as the host said it; nil for `added`.
  public var reason: String?
  /// Unix seconds.
  public var reportedAt: Int64

  public init(id: String, outcome: Outcome, reason: String?, reportedAt: Int64) {
    self.id = id
    self.outcome = outcome
    self.reason = reason
    self.reportedAt = reportedAt
  }
}

extension InboxStore {
  /// Records `record` for a visible message, replacing an earlier report (the user may fail, then
  /// add the pass); false, and nothing written, when no visible message has that id.
  public func recordWallet(_ record: WalletRecord, now: Int64) throws -> Bool {
    try write { database in
      guard let row = try Self.row(database, id: record.id), !row.isDismissed,
        row.expiresAt.map({ $0 > now }) ?? true
      else { return false }
      try database.run(
        """
        INSERT INTO wallet_passes (message_id, outcome, reason, reported_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (message_id) DO UPDATE SET outcome = excluded.outcome, reason = excluded.reason,
            reported_at = excluded.reported_at
        """,
        [
          .text(record.id), .text(record.outcome.rawValue), record.reason.map { .text($0) } ?? .null,
          .int(record.reportedAt),
        ])
      return true
    }
  }

  /// The last report for message `id`, nil when none.
  public func walletRecord(id: String) throws -> WalletRecord? {
    try read { database in
      var found: WalletRecord?
      try database.query(
        "SELECT outcome, reason, reported_at FROM wallet_passes WHERE message_id = ?", [.text(id)]
      ) { row in
        guard let outcome = row.text(0).flatMap(WalletRecord.Outcome.init(rawValue:)) else { return }
        found = WalletRecord(id: id, outcome: outcome, reason: row.text(1), reportedAt: row.int(2))
      }
      return found
    }
  }
}
