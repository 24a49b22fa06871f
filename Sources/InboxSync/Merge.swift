import InboxCore
import InboxStore
import JSON

/// The merge of a fetched inbox into the local one: a pure function, so every rule is a table row.
///
/// Rules (docs/sync.md#what-a-sync-does):
/// 1. Expired messages leave (`rt` at or before `now`), local or fetched, dismissed or not.
/// 2. Ids in `deleted` leave (the Control Panel removed them), even with local changes pending: the
///    changes stay queued and are still sent.
/// 3. The fetched list is authoritative for backend messages: one no longer listed leaves, unless
///    - a local change to it is still pending (local changes win until the backend confirms them),
///    - it is push-only (no `order`: the backend has not listed it yet),
///    - it is dismissed (its row is a tombstone that keeps it from coming back),
///    - it was listed but unreadable (a malformed copy does not delete a good one).
/// 4. A listed message: status becomes max(local, backend). Where the local status is ahead, the change
///    is queued again unless it is queued already; a backend status of 4 or 5 makes it leave the feed
///    (its row stays as a tombstone). A new message is added unless the backend already counts it as
///    deleted. A dismissed message stays dismissed whatever the copy says (docs/engine.md#dismissal).
/// 5. Queued changes of a message that had no `order` get the listed one, so they can be sent.
/// 6. Queued changes without an `order` of an id in `deleted` are dropped: the service deleted a
///    push-only message before it ever listed it, so they can never be sent (and would stay pending).
public enum Merge {
  public static func plan(
    local: [StoredMessage], pending: [OutboxEntry], remote: RemoteInbox, now: Int64
  ) -> MergePlan {
    // A plan that is never cancelled always completes.
    (try? plan(local: local, pending: pending, remote: remote, now: now, isCancelled: { false })) ?? MergePlan()
  }

  /// `plan`, asking `isCancelled` between batches of listed messages (a cancel throws `.cancelled`):
  /// planning a long list takes long enough that a cancel should not wait for it.
  public static func plan(
    local: [StoredMessage], pending: [OutboxEntry], remote: RemoteInbox, now: Int64, isCancelled: () -> Bool
  ) throws(SyncError) -> MergePlan {
    var merge = Steps(local: local, pending: pending, deleted: remote.deleted, now: now)
    var plan = merge.start()
    plan.writes.reserveCapacity(remote.messages.count)
    for (offset, message) in remote.messages.enumerated() {
      if offset % MergePlan.rowsPerCheck == MergePlan.rowsPerCheck - 1, isCancelled() { throw .cancelled }
      // The rows are complete: nothing can throw.
      plan.append((try? merge.merge(message, payload: remote.payload(at: offset))) ?? MergePlan())
    }
    plan.append(merge.finish(unreadable: remote.unreadableIDs))
    return plan
  }

  /// Whether the copy says something new to the host besides its `status` (which the merge weighs on
  /// its own). Compared as the engine reads both, so `"order": "7"` and `"order": 7`, or `action_params`
  /// as a string and as an object, are the same message.
  static func contentChanged(_ row: StoredMessage, _ message: InboxMessage) -> Bool {
    guard row.order == message.order, row.source == message.source.rawValue else { return true }
    // The usual case, a status changed elsewhere: the copy is the stored one but for its `status`,
    // told without reading the stored payload again.
    if case .object(var fields) = message.raw, fields["status"] != nil {
      fields["status"] = .int(row.serverStatus.rawValue)
      if JSONValue.object(fields).jsonString == row.payload { return false }
    }
    guard var stored = try? row.message() else { return true }
    var fetched = message
    stored.raw = .null
    fetched.raw = .null
    stored.status = fetched.status
    stored.ingestedAt = fetched.ingestedAt
    return stored != fetched
  }

  /// The status to send again when the local one is ahead of the backend's: the local status, capped
  /// at 4 (a client never sends 5, "deleted by the service").
  static func resendStatus(local: MessageStatus, server: MessageStatus) -> MessageStatus? {
    let sendable = min(local, .deletedByUser)
    guard sendable > server, sendable >= .read else { return nil }
    return sendable
  }

  /// 5: queued changes of `id` without an `order` get the listed one.
  static func fill(_ plan: inout MergePlan, id: String, order: String, hash: String?, pending: [OutboxEntry]?) {
    guard let pending, pending.contains(where: { $0.order == nil }) else { return }
    plan.orderFills.append(MergePlan.OrderFill(messageID: id, order: order, hash: hash))
  }
}
