import InboxCore
import JSON
import Testing

@testable import InboxStore

/// Texts with NUL inside are stored whole, in every text column: SQLite takes a text by its byte
/// length, so "a\0b" and "a\0c" stay two keys and never both become "a".
struct NULTextTests {
  let now: Int64 = 1_800_000_000

  @Test func idsThatDifferAfterANULAreTwoMessages() throws {
    let temp = try TemporaryStore()
    #expect(try temp.store.add(try backendMessage("a\u{0}b", sentAt: 100)) == .added)
    #expect(try temp.store.add(try backendMessage("a\u{0}c", sentAt: 200)) == .added)
    #expect(try temp.store.message(id: "a\u{0}b")?.id == "a\u{0}b")
    #expect(try temp.store.message(id: "a\u{0}c")?.id == "a\u{0}c")
    #expect(try temp.store.message(id: "a") == nil)
    // A cursor's id is compared whole too: the page after "a\0c" holds "a\0b".
    let page = try temp.store.page(after: nil, limit: 1, unreadOnly: false, unreadFirst: false, now: now)
    let cursor = try #require(page.next)
    #expect(cursor.id == "a\u{0}c")
    let rest = try temp.store.page(after: cursor, limit: 5, unreadOnly: false, unreadFirst: false, now: now)
    #expect(rest.messages.map(\.id) == ["a\u{0}b"])
    #expect(try temp.store.dismiss(id: "a\u{0}b", now: now))
    #expect(try temp.store.message(id: "a\u{0}c")?.isDismissed == false)
  }

  @Test func orderAndHashKeepTheirNUL() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("m", sentAt: 100, order: "7\u{0}8"))
    let stored = try #require(try temp.store.message(id: "m"))
    #expect(stored.order == "7\u{0}8")
    #expect(stored.hash == "H-m")
    #expect(try temp.store.markRead(ids: ["m"], now: now) == ["m"])
    let entry = try #require(try temp.store.outbox().first)
    #expect(entry.messageID == "m" && entry.order == "7\u{0}8")
  }

  @Test func outboxTextsKeepTheirNUL() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("x\u{0}1", sentAt: 100))
    try temp.store.add(try backendMessage("x\u{0}2", sentAt: 100))
    #expect(try temp.store.markRead(ids: ["x\u{0}1", "x\u{0}2"], now: now).count == 2)
    let entries = try temp.store.outbox()
    #expect(entries.map(\.messageID) == ["x\u{0}1", "x\u{0}2"])
    try temp.store.postpone(entries[0], until: now + 10, error: "bad\u{0}reply")
    #expect(try temp.store.outbox().first?.lastError == "bad\u{0}reply")
    _ = try temp.store.retireAccount(as: "acct\u{0}old", settings: [], now: now)
    #expect(try temp.store.outbox().map(\.account) == ["acct\u{0}old", "acct\u{0}old"])
  }

  @Test func settingsKeysAndValuesKeepTheirNUL() throws {
    let temp = try TemporaryStore()
    try temp.store.setSetting("k\u{0}1", .string("v\u{0}1"))
    try temp.store.setSetting("k\u{0}2", .string("v\u{0}2"))
    #expect(try temp.store.setting("k\u{0}1") == .string("v\u{0}1"))
    #expect(try temp.store.setting("k\u{0}2") == .string("v\u{0}2"))
    #expect(try temp.store.setting("k") == nil)
  }

  @Test func payloadsKeepTheirNUL() throws {
    let temp = try TemporaryStore()
    let message = try backendMessage("p", sentAt: 100)
    try temp.store.add(message)
    let stored = try #require(try temp.store.message(id: "p"))
    #expect(stored.payload == message.raw.jsonString)
    // A title with a NUL inside survives the round trip through the stored payload.
    var raw = message.raw.objectValue ?? [:]
    raw["title"] = .string("before\u{0}after")
    let titled = try Engine.ingest(payload: .object(raw), context: IngestContext(now: 100)).message
    try temp.store.add(titled)
    #expect(try temp.store.message(id: "p")?.message().title == "before\u{0}after")
  }
}
