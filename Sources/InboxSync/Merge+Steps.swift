import InboxCore
import InboxStore

extension Merge {
  /// The rules of `Merge`, applied to one listed message at a time: `start` before the list,
  /// `merge` for each listed message in order, `finish` after it. Each returns the part of the plan
  /// it decided, so a sync can write it before it reads the next message, and `Merge.plan` can
  /// gather the parts into the whole plan. It keeps the local state and the ids seen so far.
  struct Steps {
    private let local: [StoredMessage]
    private let now: Int64
    private let deleted: Set<String>
    private let pendingByMessage: [String: [OutboxEntry]]
    /// Where each local row is in `local`.
    private let localByID: [String: Int]
    /// A local row with its payload, for a listed message that has one (`local` may leave it out).
    private let complete: (StoredMessage) throws -> StoredMessage
    /// Rows rules 1 and 2 decided and ids listed so far: a listed id is planned once.
    private var seen: Set<String>

    init(
      local: [StoredMessage], pending: [OutboxEntry], deleted: [String], now: Int64,
      complete: @escaping (StoredMessage) throws -> StoredMessage = { $0 }
    ) {
      self.local = local
      self.complete = complete
      self.now = now
      self.deleted = Set(deleted)
      pendingByMessage = Dictionary(grouping: pending, by: \.messageID)
      // Sized up front: growing them row by row rehashes every id several times.
      var localByID = [String: Int](minimumCapacity: local.count)
      for (offset, row) in local.enumerated() { localByID[row.id] = offset }
      self.localByID = localByID
      seen = Set(minimumCapacity: local.count)
    }

    private func isExpired(_ expiresAt: Int64?) -> Bool { expiresAt.map { $0 <= now } ?? false }

    private func leave(_ row: StoredMessage, expired: Bool, in plan: inout MergePlan) {
      plan.deletions.append(row.id)
      guard !row.isDismissed else { return }
      if expired { plan.expired.append(row.id) } else { plan.removed.append(row.id) }
    }

    /// 1 and 2: local rows that leave whatever the list says; 6: changes that can never be sent.
    mutating func start() -> MergePlan {
      var plan = MergePlan()
      for id in deleted where pendingByMessage[id]?.contains(where: { $0.order == nil }) == true {
        plan.unsendable.append(id)
      }
      for row in local {
        if isExpired(row.expiresAt) {
          leave(row, expired: true, in: &plan)
          seen.insert(row.id)
        } else if deleted.contains(row.id) {
          leave(row, expired: false, in: &plan)
          seen.insert(row.id)
        }
      }
      return plan
    }

    /// 4 and 5: one listed message, with its compact text. Throws what `complete` throws.
    mutating func merge(_ message: InboxMessage, payload: String) throws -> MergePlan {
      var plan = MergePlan()
      let id = message.id
      guard seen.insert(id).inserted, !deleted.contains(id) else { return plan }
      let existing = try localByID[id].map { try complete(local[$0]) }
      if let order = message.order {
        Merge.fill(&plan, id: id, order: order, hash: message.hash ?? existing?.hash, pending: pendingByMessage[id])
      }
      if isExpired(message.expiresAt) {
        if let existing { leave(existing, expired: true, in: &plan) }
        return plan
      }
      guard let row = existing else {
        guard !message.status.isDeleted else { return plan }
        plan.writes.append(
          MergePlan.Write(
            id: id, message: message, payload: payload, status: message.status, serverStatus: message.status))
        plan.added.append(id)
        return plan
      }
      let status = max(row.status, message.status)
      let order = message.order ?? row.order
      if let order, let resend = Merge.resendStatus(local: status, server: message.status),
        !(pendingByMessage[id] ?? []).contains(where: { $0.status == resend })
      {
        plan.resends.append(
          MergePlan.Resend(messageID: id, status: resend, order: order, hash: message.hash ?? row.hash))
      }
      if row.isDismissed {
        // A tombstone: it stays dismissed; remember the backend's word and its order for re-sends.
        if row.serverStatus != message.status || row.order == nil {
          plan.writes.append(
            MergePlan.Write(
              id: id, status: status, serverStatus: message.status, order: message.order, hash: message.hash))
        }
        return plan
      }
      let copyChanged = row.payload != payload || row.order != message.order
      if copyChanged || status != row.status || message.status != row.serverStatus {
        plan.writes.append(
          MergePlan.Write(
            id: id, message: copyChanged ? message : nil, payload: payload, status: status,
            serverStatus: message.status, order: message.order, hash: message.hash))
      }
      if status.isDeleted {
        plan.removed.append(id)
      } else if status != row.status || (copyChanged && Merge.contentChanged(row, message)) {
        plan.updated.append(id)
      }
      return plan
    }

    /// 3: local rows the list no longer has (`unreadable`: ids listed but not read).
    func finish(unreadable: Set<String>) -> MergePlan {
      var plan = MergePlan()
      for row in local where !seen.contains(row.id) {
        if row.isDismissed || row.order == nil || pendingByMessage[row.id] != nil || unreadable.contains(row.id) {
          continue
        }
        leave(row, expired: false, in: &plan)
      }
      return plan
    }
  }
}
