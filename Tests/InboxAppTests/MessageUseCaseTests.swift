import InboxApp
import InboxCore
import InboxStore
import JSON
import Testing

struct MessageUseCaseTests {
  @Test func aRowTapOpensOnceAndReportsTheChange() throws {
    let test = try TestInbox()
    try test.add("a")
    let first = try test.inbox.tap(id: "a")
    #expect(first.card.read && first.card.actionPerformed)
    #expect(first.effects.changes == [FeedChange(.opened, updated: ["a"])])
    #expect(try test.inbox.tap(id: "a").effects.changes.isEmpty)
    #expect(try test.store.outbox().map(\.status) == [.read, .opened])
  }

  @Test func aRowTapWithoutTheDefaultChangesNothing() throws {
    let test = try TestInbox()
    try test.add("a")
    let outcome = try test.inbox.tap(id: "a", performDefault: false)
    #expect(!outcome.card.read && outcome.effects.changes.isEmpty)
    #expect(try test.store.message(id: "a")?.status == .delivered)
  }

  @Test func tapsOfUnknownDismissedOrExpiredMessagesAreRefused() throws {
    let test = try TestInbox()
    try test.add("gone")
    _ = try test.inbox.dismiss(id: "gone")
    try test.add("old", days: 1, age: 2 * 86_400)
    for id in ["unknown", "gone", "old"] {
      #expect(throws: InboxError.messageNotFound(id: id)) { try test.inbox.tap(id: id) }
      #expect(throws: InboxError.messageNotFound(id: id)) { try test.inbox.tapButton(id: id, index: 0) }
      #expect(throws: InboxError.messageNotFound(id: id)) { try test.inbox.card(id: id) }
    }
  }

  @Test func aDismissButtonOpensThenDismissesForGood() throws {
    let test = try TestInbox()
    try test.add("a", data: TestInbox.buttons)
    let outcome = try test.inbox.tapButton(id: "a", index: 1)
    #expect(outcome.action == .dismiss && outcome.performed && outcome.card == nil)
    #expect(outcome.effects.changes == [FeedChange(.dismissed, removed: ["a"])])
    #expect(try test.inbox.list().cards.isEmpty)
    #expect(try test.store.outbox().map(\.status) == [.read, .opened, .deletedByUser])
  }

  @Test func aMarkReadButtonOpensAndReturnsTheCard() throws {
    let test = try TestInbox()
    try test.add("a", data: TestInbox.buttons)
    let outcome = try test.inbox.tapButton(id: "a", index: 0)
    #expect(outcome.performed && outcome.card?.read == true && outcome.card?.actionPerformed == true)
    #expect(outcome.effects.changes == [FeedChange(.opened, updated: ["a"])])
    let again = try test.inbox.tapButton(id: "a", index: 0)
    #expect(again.performed && again.effects.changes.isEmpty)
    #expect(try test.store.outbox().map(\.status) == [.read, .opened])
  }

  /// An openURL button and a custom one: returned to the host, and the message is opened.
  @Test(arguments: [
    JSONValue.object(["title": "Site", "url": "https://example.com"]), .object(["title": "Save", "tag": "save"]),
  ])
  func aHostButtonIsReturnedNotPerformedAndOpensTheMessage(_ button: JSONValue) throws {
    let test = try TestInbox()
    try test.add("a", data: ["buttons": [button]])
    let tapped = try test.inbox.tapButton(id: "a", index: 0)
    #expect(!tapped.performed && tapped.card?.read == true && tapped.card?.actionPerformed == true)
    #expect(tapped.effects.changes == [FeedChange(.opened, updated: ["a"])])
    #expect(try test.store.outbox().map(\.status) == [.read, .opened])
    #expect(try test.inbox.tapButton(id: "a", index: 0).effects.changes.isEmpty, "opened once")
    #expect(try test.store.outbox().count == 2)
  }

  @Test func aButtonTapOfAReadMessageReportsOnlyTheOpen() throws {
    let test = try TestInbox()
    try test.add("a", data: TestInbox.buttons)
    _ = try test.inbox.markRead(ids: ["a"])
    _ = try test.inbox.tapButton(id: "a", index: 2)
    #expect(try test.store.outbox().map(\.status) == [.read, .opened])
    _ = try test.inbox.tapButton(id: "a", index: 1)
    #expect(try test.store.outbox().map(\.status) == [.read, .opened, .deletedByUser])
  }

  @Test func aSuppressedDefaultChangesNothing() throws {
    let test = try TestInbox()
    try test.add("a", data: TestInbox.buttons)
    for index in 0..<3 {
      let suppressed = try test.inbox.tapButton(id: "a", index: index, performDefault: false)
      #expect(!suppressed.performed && suppressed.card?.read == false && suppressed.effects.changes.isEmpty)
    }
    #expect(try test.store.outbox().isEmpty)
  }

  @Test func aButtonTheCardLacksIsAnInvalidArgument() throws {
    let test = try TestInbox()
    try test.add("a", data: TestInbox.buttons)
    #expect(
      throws: InboxError.invalidArgument(argument: "button", reason: "no button 3: the card has 3 (indexes start at 0)")
    ) {
      try test.inbox.tapButton(id: "a", index: 3)
    }
  }

  @Test func slideTapsAnswerTheSlideOrRefuseIt() throws {
    let test = try TestInbox()
    let carousel: JSONObject = [
      "displayType": "carousel",
      "carousel": [
        ["image": "https://cdn.example.com/1.jpg", "url": "myapp://one"], ["image": "https://cdn.example.com/2.jpg"],
      ],
    ]
    try test.add("c", data: carousel)
    let linked = try test.inbox.tapSlide(id: "c", index: 0)
    #expect(linked.action == .deeplink("myapp://one") && linked.card.read && !linked.card.actionPerformed)
    #expect(linked.effects.changes == [FeedChange(.read, updated: ["c"])])
    let row = try test.inbox.tapSlide(id: "c", index: 1)
    #expect(row.action == (try test.inbox.card(id: "c")).card.rowAction && row.card.actionPerformed)
    #expect(row.effects.changes == [FeedChange(.opened, updated: ["c"])])
    #expect(throws: InboxError.self) { try test.inbox.tapSlide(id: "c", index: 4) }
    try test.add("plain")
    #expect(throws: InboxError.self) { try test.inbox.tapSlide(id: "plain", index: 0) }
  }

  @Test func dismissIsPersistedOnceAndUnknownIdsAreRefused() throws {
    let test = try TestInbox()
    try test.add("a")
    let first = try test.inbox.dismiss(id: "a")
    #expect(first.dismissed && first.effects.changes == [FeedChange(.dismissed, removed: ["a"])])
    let second = try test.inbox.dismiss(id: "a")
    #expect(!second.dismissed && second.effects.changes.isEmpty)
    #expect(throws: InboxError.messageNotFound(id: "nope")) { try test.inbox.dismiss(id: "nope") }
    #expect(try test.add("a").outcome == .dismissed)
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
