import Foundation
import InboxCore
import JSON
import Testing

@testable import InboxStore

/// The tag index behind `customData` filters: what a filter matches, and a store made before it.
struct CustomDataFilterTests {
  static let now: Int64 = 1_800_000_000

  func tagged(_ id: String, sentAt: Int64, _ custom: JSONValue) throws -> InboxMessage {
    let payload: JSONValue = [
      "pw_inbox": .string(id), "title": "Body", "header": .string("Push \(id)"), "u": custom,
      "google.sent_time": .int(sentAt * 1000), "inbox_params": .string(#"{"rt": "4102444800"}"#),
    ]
    return try Engine.ingest(payload: payload, context: IngestContext(now: sentAt)).message
  }

  func filter(_ object: JSONObject) throws -> CustomDataFilter? { try CustomDataFilter(object) }

  @Test func valuesCompareAsJSONAndEveryKeyMustMatch() throws {
    let temporary = try TemporaryStore()
    let store = temporary.store
    try store.add(tagged("a", sentAt: 1_700_000_003, ["tier": 3, "category": "promo", "vip": true]))
    try store.add(tagged("b", sentAt: 1_700_000_002, ["tier": "3", "category": "promo"]))
    try store.add(tagged("c", sentAt: 1_700_000_001, .string(#"{"tier": 3.0, "nested": {"x": 1}}"#)))
    func ids(_ object: JSONObject) throws -> [String] {
      try store.page(
        after: nil, limit: 10, unreadOnly: false, unreadFirst: false, customData: filter(object), now: Self.now
      )
      .messages.map(\.id)
    }
    #expect(try ids(["tier": 3]) == ["a", "c"])
    #expect(try ids(["tier": 3.0]) == ["a", "c"])
    #expect(try ids(["tier": "3"]) == ["b"])
    #expect(try ids(["category": "promo", "vip": true]) == ["a"])
    #expect(try ids(["vip": 1]).isEmpty)
    #expect(try store.counts(now: Self.now, customData: filter(["category": "promo", "tier": 3])).total == 1)
    #expect(try store.counts(now: Self.now, customData: filter(["tier": 3])).total == 2)
    #expect(throws: CustomDataFilter.Invalid.self) { try filter(["nested": ["x": 1]]) }
    #expect(try filter([:]) == nil)
    #expect(try filter(["a": 1, "b": "x"]) == filter(["b": "x", "a": 1.0]))
  }

  @Test func aStoreMadeBeforeTheTagIndexIsTaggedByItsMigration() throws {
    try withVersionOneStore { store in
      let pinned = try filter(["pinned": true])
      let page = try store.page(
        after: nil, limit: 10, unreadOnly: false, unreadFirst: false, customData: pinned, now: Self.now)
      #expect(page.messages.map(\.id) == ["m-pinned"])
      #expect(
        try store.counts(now: Self.now, customData: pinned)
          == FeedCounts(total: 1, unread: 1, unactioned: 1, pinned: 1, unseen: 1)
      )
    }
  }
}
