import InboxCore
import InboxTestSupport
import Testing

@testable import InboxStore

/// The stored counts equal a recount of the table after any sequence of changes, local or synced.
struct CountsTallyTests {
  let now: Int64 = 1_800_000_000

  func recount(_ store: InboxStore) throws -> FeedCounts {
    try store.read { database in
      var counts = FeedCounts()
      try database.query(
        """
        SELECT count(*), coalesce(sum(status < 2), 0), coalesce(sum(status < 3), 0), coalesce(sum(pinned), 0),
          coalesce(sum(status < 2 AND seen_at IS NULL), 0)
        FROM messages WHERE status < 4 AND (expires_at IS NULL OR expires_at > ?)
        """, [.int(now)]
      ) { row in
        counts = FeedCounts(
          total: Int(row.int(0)), unread: Int(row.int(1)), unactioned: Int(row.int(2)), pinned: Int(row.int(3)),
          unseen: Int(row.int(4)))
      }
      return counts
    }
  }

  /// Five fixed seeds and one new each run (printed with the step on failure).
  @Test(arguments: [1, 2, 3, 4, 5, UInt64.random(in: 6...UInt64.max)] as [UInt64])
  func countsMatchARecountAfterRandomChanges(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let temp = try TemporaryStore()
    let store = temp.store
    func id() -> String { "m\(Int.random(in: 0..<40, using: &random))" }
    for step in 0..<300 {
      let expires = Bool.random(using: &random) ? now + 1_000 : now - Int64.random(in: -5...5, using: &random)
      let message = try backendMessage(
        id(), sentAt: Int64(step), expiresAt: max(expires, 1), pinned: Bool.random(using: &random),
        status: Int64.random(in: 1...5, using: &random))
      switch Int.random(in: 0..<11, using: &random) {
      case 9: _ = try store.markSeen(ids: [id(), id(), id()], now: now)
      case 10: if Int.random(in: 0..<4, using: &random) == 0 { _ = try store.markAllSeen(now: now) }
      case 0, 1: _ = try store.insert(message, pinned: message.isPinned, now: now - 10)
      case 2: _ = try store.markRead(ids: [id(), id()], now: now)
      case 3: _ = try store.markOpened(id: id(), now: now)
      case 4: _ = try store.dismiss(id: id(), now: now)
      case 5: try store.purgeExpired(now: now)
      case 6:
        try store.syncTransaction { transaction in
          _ = try transaction.messages()
          try transaction.upsert(message, status: message.status, serverStatus: message.status)
          try transaction.delete(id: id())
        }
      case 7:
        // Without reading the rows first: the tally reads what it needs.
        try store.syncTransaction { transaction in
          try transaction.setState(id: id(), status: .opened, serverStatus: .read, order: nil, hash: nil)
          try transaction.upsert(message, status: .read, serverStatus: .delivered)
        }
      default:
        if Int.random(in: 0..<10, using: &random) == 0 {
          _ = try store.retireAccount(as: "old", settings: [], now: now)
        }
      }
      try #require(try store.counts(now: now) == recount(store), "seed \(seed), step \(step)")
    }
  }
}
