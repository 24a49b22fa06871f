import InboxCore
import JSON
import Testing

/// The feed order (docs/engine.md#feed-order): pinned first, newest first, ties by id, optionally unread first.
@Suite struct FeedOrderTests {
  private func key(_ id: String, _ sentAt: Int64?, pinned: Bool = false, read: Bool = false) -> FeedSortKey {
    FeedSortKey(pinned: pinned, read: read, sentAt: sentAt, id: id)
  }

  private func ids(_ keys: [FeedSortKey], _ order: FeedOrder = FeedOrder()) -> [String] {
    keys.sorted(by: order.areInIncreasingOrder).map(\.id)
  }

  /// Same send time: ids ascending, so two messages of the same second have one order.
  @Test func sameSentAtTiesByIdAscending() {
    let keys = [key("b", 100), key("c", 100), key("a", 100)]
    #expect(ids(keys) == ["a", "b", "c"])
    #expect(FeedOrder().areInIncreasingOrder(key("a", 100), key("b", 100)))
    #expect(!FeedOrder().areInIncreasingOrder(key("b", 100), key("a", 100)))
  }

  /// Ids compare by UTF-8 bytes: "B" before "a", and two canonically equivalent spellings are still ordered.
  @Test func idsCompareByBytes() {
    #expect(ids([key("a", 1), key("B", 1)]) == ["B", "a"])
    let decomposed = "e\u{301}"
    let precomposed = "\u{E9}"
    let order = FeedOrder()
    #expect(order.areInIncreasingOrder(key(decomposed, 1), key(precomposed, 1)))
    #expect(!order.areInIncreasingOrder(key(precomposed, 1), key(decomposed, 1)))
  }

  /// Pinned comes first even when older; inside each group newest first.
  @Test func pinnedBeforeNewer() {
    let keys = [
      key("new", 300), key("old-pinned", 100, pinned: true), key("mid", 200), key("new-pinned", 250, pinned: true),
    ]
    #expect(ids(keys) == ["new-pinned", "old-pinned", "new", "mid"])
  }

  /// A message without a send time is the oldest of its group.
  @Test func missingSentAtIsOldest() {
    let keys = [key("none", nil), key("ancient", Int64.min), key("recent", 5), key("none-pinned", nil, pinned: true)]
    #expect(ids(keys) == ["none-pinned", "recent", "ancient", "none"])
    #expect(ids([key("y", nil), key("x", nil)]) == ["x", "y"])
  }

  /// By default read state does not reorder: a newer read message stays above an older unread one.
  @Test func readStateIgnoredByDefault() {
    let keys = [key("old-unread", 100), key("new-read", 200, read: true)]
    #expect(ids(keys) == ["new-read", "old-unread"])
  }

  /// With unreadFirst, unread comes before read inside each pinned group, never across groups.
  @Test func unreadFirstInsideEachGroup() {
    let keys = [
      key("new-read", 400, read: true), key("old-unread", 100), key("pinned-read", 50, pinned: true, read: true),
      key("pinned-unread", 10, pinned: true), key("new-unread", 300),
    ]
    let order = FeedOrder(unreadFirst: true)
    #expect(ids(keys, order) == ["pinned-unread", "pinned-read", "new-unread", "old-unread", "new-read"])
    #expect(FeedOrder(attributes: Attributes(unreadFirst: true)) == order)
    #expect(FeedOrder(attributes: Attributes()) == FeedOrder())
  }

  /// The order is a strict total order: irreflexive, asymmetric, and every permutation sorts the same.
  @Test(arguments: [false, true])
  func isTotal(unreadFirst: Bool) {
    let keys = [
      key("a", 1), key("b", 1), key("c", nil), key("d", 2, pinned: true), key("e", 2, read: true),
      key("f", 2, pinned: true, read: true), key("g", nil, pinned: true),
    ]
    let order = FeedOrder(unreadFirst: unreadFirst)
    for lhs in keys {
      #expect(!order.areInIncreasingOrder(lhs, lhs))
      for rhs in keys where rhs != lhs {
        #expect(order.areInIncreasingOrder(lhs, rhs) != order.areInIncreasingOrder(rhs, lhs))
      }
    }
    let reference = ids(keys, order)
    #expect(ids(keys.reversed(), order) == reference)
    #expect(ids(keys.shuffled(), order) == reference)
  }

  /// `sorted(_:)` orders resolved cards by their sort keys (pinned from the payload, sentAt from ingest).
  @Test func sortsCards() throws {
    func card(_ id: String, _ params: JSONValue, sentAt: Int64) throws -> Card {
      let payload: JSONValue = [
        "inbox_id": .string(id), "order": "1", "rt": 1_893_456_000, "send_date": .int(sentAt), "text": "B",
        "status": 1, "action_params": params,
      ]
      return try Engine.resolve(payload: payload, context: IngestContext(now: 0)).card
    }
    let cards = [
      try card("m1", [:], sentAt: 100), try card("m2", ["u": "{\"pinned\":true}"], sentAt: 50),
      try card("m3", [:], sentAt: 200),
    ]
    #expect(FeedOrder().sorted(cards).map(\.id) == ["m2", "m3", "m1"])
  }
}
