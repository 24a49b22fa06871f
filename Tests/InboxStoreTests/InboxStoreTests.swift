import Foundation
import InboxCore
import InboxTestSupport
import JSON
import Testing

@testable import InboxStore

struct InboxStoreTests {
  let now: Int64 = 1_800_000_000

  @Test func aChangeIsCommittedAndSurvivesReopening() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 100))
    try temp.store.add(try backendMessage("b", sentAt: 200))
    #expect(try temp.store.dismiss(id: "a", now: now))
    #expect(try temp.store.markRead(ids: ["b", "unknown"], now: now) == ["b"])
    let reopened = try InboxStore.open(InboxStore.Options(path: temp.path))
    defer { try? reopened.close() }
    #expect(try reopened.message(id: "a")?.dismissedAt == now)
    #expect(try reopened.message(id: "b")?.status == .read)
    #expect(try reopened.outbox().map { "\($0.messageID):\($0.status)" } == ["a:4", "b:2"])
    #expect(reopened.storeID == temp.store.storeID)
  }

  @Test func fileIsOwnerOnly() throws {
    let temp = try TemporaryStore()
    let attributes = try FileManager.default.attributesOfItem(atPath: temp.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func statusNeverGoesDownAndDismissedNeverComesBack() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 100))
    _ = try temp.store.markOpened(id: "a", now: now)
    try temp.store.add(try backendMessage("a", sentAt: 100, status: 1))
    #expect(try temp.store.message(id: "a")?.status == .opened)
    #expect(try temp.store.dismiss(id: "a", now: now))
    #expect(try temp.store.dismiss(id: "a", now: now) == false)
    #expect(try temp.store.add(try backendMessage("a", sentAt: 100)) == .dismissed)
    #expect(try temp.store.visibleMessage(id: "a", now: now) == nil)
    #expect(try temp.store.outbox().map(\.status) == [.read, .opened, .deletedByUser])
  }

  @Test func expiredMessagesAreNotStoredNeverListedAndPurged() throws {
    let temp = try TemporaryStore()
    #expect(try temp.store.add(try backendMessage("old", sentAt: 10, expiresAt: 20), now: 30) == .expired)
    try temp.store.add(try backendMessage("soon", sentAt: 10, expiresAt: 50), now: 30)
    try temp.store.add(try backendMessage("later", sentAt: 20), now: 30)
    #expect(try temp.store.counts(now: 40).total == 2)
    #expect(try temp.store.counts(now: 60).total == 1)
    let page = try temp.store.page(after: nil, limit: 10, unreadOnly: false, unreadFirst: false, now: 60)
    #expect(page.messages.map(\.id) == ["later"])
    #expect(try temp.store.purgeExpired(now: 60) == ["soon"])
    #expect(try temp.store.message(id: "soon") == nil)
  }

  @Test func countsMatchABruteForceCount() throws {
    let temp = try TemporaryStore()
    var generator = SystemRandomNumberGenerator()
    for index in 0..<300 {
      let message = try backendMessage(
        "m\(index)", sentAt: Int64(index), expiresAt: Int64.random(in: 50...400, using: &generator),
        pinned: index % 7 == 0)
      try temp.store.add(message, now: 0)
    }
    for index in stride(from: 0, to: 300, by: 3) { _ = try temp.store.markRead(ids: ["m\(index)"], now: 1) }
    for index in stride(from: 0, to: 300, by: 5) { _ = try temp.store.markOpened(id: "m\(index)", now: 1) }
    for index in stride(from: 0, to: 300, by: 11) { _ = try temp.store.dismiss(id: "m\(index)", now: 1) }
    _ = try temp.store.markSeen(ids: stride(from: 0, to: 300, by: 2).map { "m\($0)" }, now: 1)
    for at in [0, 100, 200, 399, 500] as [Int64] {
      var all: [StoredMessage] = []
      for index in 0..<300 { if let row = try temp.store.message(id: "m\(index)") { all.append(row) } }
      let visible = all.filter { !$0.isDismissed && ($0.expiresAt ?? .max) > at }
      let expected = FeedCounts(
        total: visible.count, unread: visible.filter { !$0.status.isRead }.count,
        unactioned: visible.filter { !$0.status.isActionPerformed }.count, pinned: visible.filter(\.pinned).count,
        unseen: visible.filter(\.isUnseen).count)
      #expect(try temp.store.counts(now: at) == expected, "at \(at)")
    }
  }

  @Test(arguments: [false, true])
  func pagingUnderConcurrentChangesNeitherDuplicatesNorSkips(unreadFirst: Bool) throws {
    let temp = try TemporaryStore()
    var generator = SplitMix64(seed: unreadFirst ? 7 : 3)
    for index in 0..<1_000 {
      // Few distinct send times, so ties broken by id are exercised.
      let sentAt = Int64(generator.next() % 200)
      try temp.store.add(try backendMessage(String(format: "m%04d", index), sentAt: sentAt, pinned: index % 37 == 0))
      if index % 3 == 0 { _ = try temp.store.markRead(ids: [String(format: "m%04d", index)], now: now) }
    }
    let original = Set((0..<1_000).map { String(format: "m%04d", $0) })
    var dismissed = Set<String>()
    var seen: [StoredMessage] = []
    var cursor: FeedCursor?
    var inserted = 0
    repeat {
      let page = try temp.store.page(after: cursor, limit: 7, unreadOnly: false, unreadFirst: unreadFirst, now: now)
      seen += page.messages
      cursor = page.next
      // Between pages: insert a few (some before, some after the position) and dismiss a few.
      for _ in 0..<2 {
        inserted += 1
        try temp.store.add(
          try backendMessage("new\(inserted)", sentAt: Int64(generator.next() % 200), pinned: inserted % 5 == 0))
      }
      let victim = String(format: "m%04d", Int(generator.next() % 1_000))
      if try temp.store.dismiss(id: victim, now: now) { dismissed.insert(victim) }
    } while cursor != nil
    let ids = seen.map(\.id)
    #expect(Set(ids).count == ids.count, "a message appeared twice")
    let mustSee = original.subtracting(dismissed)
    #expect(mustSee.isSubset(of: Set(ids)), "skipped: \(mustSee.subtracting(ids).sorted().prefix(5))")
    let order = FeedOrder(unreadFirst: unreadFirst)
    for (left, right) in zip(seen, seen.dropFirst()) {
      #expect(order.areInIncreasingOrder(left.sortKey, right.sortKey), "\(left.id) before \(right.id)")
    }
  }

  @Test func unreadOnlyListsOnlyUnread() throws {
    let temp = try TemporaryStore()
    for index in 0..<30 { try temp.store.add(try backendMessage("m\(index)", sentAt: Int64(index))) }
    _ = try temp.store.markRead(ids: (0..<30).filter { $0 % 2 == 0 }.map { "m\($0)" }, now: now)
    var ids: [String] = []
    var cursor: FeedCursor?
    repeat {
      let page = try temp.store.page(after: cursor, limit: 4, unreadOnly: true, unreadFirst: false, now: now)
      ids += page.messages.map(\.id)
      cursor = page.next
    } while cursor != nil
    #expect(ids == (0..<30).reversed().filter { $0 % 2 == 1 }.map { "m\($0)" })
  }

  @Test func cursorsRefuseForeignOrAlteredTokens() throws {
    let temp = try TemporaryStore()
    let cursor = FeedCursor(
      storeID: temp.store.storeID, unreadFirst: false, pinned: true, unread: true, sortTime: 5, id: "x")
    #expect(try FeedCursor(token: cursor.token, storeID: temp.store.storeID, unreadFirst: false) == cursor)
    #expect(throws: FeedCursor.Invalid.self) {
      try FeedCursor(token: cursor.token, storeID: "other", unreadFirst: false)
    }
    #expect(throws: FeedCursor.Invalid.self) {
      try FeedCursor(token: cursor.token, storeID: temp.store.storeID, unreadFirst: true)
    }
    var altered = Array(cursor.token)
    altered[10] = altered[10] == "A" ? "B" : "A"
    #expect(throws: FeedCursor.Invalid.self) {
      try FeedCursor(token: String(altered), storeID: temp.store.storeID, unreadFirst: false)
    }
    #expect(throws: FeedCursor.Invalid.self) {
      try FeedCursor(token: "!!", storeID: temp.store.storeID, unreadFirst: false)
    }
  }
}
