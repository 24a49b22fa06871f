import InboxApp
import InboxCore
import InboxStore
import JSON
import Testing

struct FeedUseCaseTests {
  @Test func pagesFollowEachOtherWithoutRepeatsAndCarryCounts() throws {
    let test = try TestInbox()
    for index in 0..<5 { try test.add("m\(index)", age: Int64(index)) }
    let first = try test.inbox.list(page: PageRequest(limit: 2))
    #expect(first.cards.map(\.id) == ["m0", "m1"])
    #expect(first.counts == FeedCounts(total: 5, unread: 5, unactioned: 5, pinned: 0, unseen: 5))
    let second = try test.inbox.list(page: PageRequest(cursor: first.next?.token, limit: 10))
    #expect(second.cards.map(\.id) == ["m2", "m3", "m4"] && second.next == nil)
  }

  @Test func filtersOnUnreadAndOnTheResolvedKind() throws {
    let test = try TestInbox()
    try test.add("plain")
    try test.add("banner", data: ["displayType": "banner", "image": "https://cdn.example.com/b.png"], age: 1)
    try test.add("read", age: 2)
    _ = try test.inbox.markRead(ids: ["read"])
    #expect(try test.inbox.list(filter: FeedFilter(unreadOnly: true)).cards.map(\.id) == ["plain", "banner"])
    #expect(try test.inbox.list(filter: FeedFilter(kinds: [.banner])).cards.map(\.id) == ["banner"])
  }

  @Test func aCursorOfAnotherStoreIsAnInvalidArgument() throws {
    let one = try TestInbox()
    let other = try TestInbox()
    for index in 0..<3 { try one.add("m\(index)", age: Int64(index)) }
    let token = try one.inbox.list(page: PageRequest(limit: 1)).next?.token
    #expect(throws: InboxError.self) { try other.inbox.list(page: PageRequest(cursor: token, limit: 1)) }
    #expect(throws: InboxError.self) { try other.inbox.list(page: PageRequest(cursor: "garbage", limit: 1)) }
  }

  @Test func expiredMessagesArePurgedAndReported() throws {
    let test = try TestInbox()
    try test.add("old", days: 1, age: 2 * 86_400)
    try test.add("new")
    let counts = try test.inbox.counts()
    #expect(counts.counts.total == 1)
    #expect(counts.effects.changes == [FeedChange(.expired, removed: ["old"])])
    #expect(try test.inbox.counts().effects.changes.isEmpty)
  }

  @Test func markReadReportsWhatChangedAndWhatDidNot() throws {
    let test = try TestInbox()
    try test.add("a")
    try test.add("b")
    let result = try test.inbox.markRead(ids: ["a", "unknown", "a"])
    #expect(result.changed == ["a"] && result.unchanged == ["unknown"])
    #expect(result.effects.changes == [FeedChange(.read, updated: ["a"])])
    let all = try test.inbox.markAllRead()
    #expect(all.changed == ["b"] && all.effects.changes == [FeedChange(.read, updated: ["b"])])
    #expect(try test.inbox.markAllRead().effects.changes.isEmpty)
  }

  @Test func aCachedCardFollowsItsMessageAndTheAttributes() throws {
    let test = try TestInbox()
    try test.add("a", title: "First")
    #expect(try test.inbox.card(id: "a").card.title == "First")
    try test.add("a", title: "Second")
    #expect(try test.inbox.card(id: "a").card.title == "Second")
    _ = try test.inbox.markRead(ids: ["a"])
    #expect(try test.inbox.list().cards.first?.read == true)
    _ = try test.inbox.configure(attributes: ["forceCellKind": "banner"], scope: .session)
    #expect(try test.inbox.card(id: "a").card.requestedKind == .banner)
  }
}
