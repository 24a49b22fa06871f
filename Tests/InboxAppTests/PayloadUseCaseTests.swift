import InboxApp
import InboxCore
import InboxStore
import JSON
import Testing

struct PayloadUseCaseTests {
  @Test func ingestAddsUpdatesAndReportsEachOutcome() throws {
    let test = try TestInbox()
    let added = try test.add("a")
    #expect(added.outcome == .added && added.effects.changes == [FeedChange(.ingested, added: ["a"])])
    _ = try test.inbox.tap(id: "a")
    let updated = try test.add("a", title: "Again")
    #expect(updated.outcome == .updated && updated.card.read && updated.card.title == "Again")
    #expect(updated.effects.changes == [FeedChange(.ingested, updated: ["a"])])
    let expired = try test.inbox.ingest(payload: [
      "aps": ["alert": ["title": "Old", "body": "Gone"]], "pw_inbox": "old", "inbox_params": ["rt": "2020-01-01"],
    ])
    #expect(expired.outcome == .expired && expired.effects.changes.isEmpty)
  }

  @Test func aPayloadThatIsNoInboxMessageStoresNothing() throws {
    let test = try TestInbox()
    #expect(throws: IngestError.self) { try test.inbox.ingest(payload: ["aps": ["alert": "hi"]]) }
    #expect(throws: IngestError.self) { try test.inbox.resolve(payload: 42) }
    #expect(try test.store.isEmpty())
  }

  @Test func resolveStoresNothingAndTakesAttributesForTheCallOnly() throws {
    let test = try TestInbox()
    let payload = TestInbox.payload(data: ["image": "https://cdn.example.com/i.png"])
    let banner = try test.inbox.resolve(
      payload: payload, context: PayloadContext(id: "x"), attributes: ["forceCellKind": "banner"])
    #expect(banner.card.kind == .banner && banner.card.id == "x")
    #expect(try test.inbox.resolve(payload: payload, context: PayloadContext(id: "x")).card.kind == .captioned)
    #expect(try test.store.isEmpty())
    #expect(throws: InboxError.self) { try test.inbox.resolve(payload: payload, attributes: ["forceCellKind": "grid"]) }
  }

  @Test func renderDrawsAStoredMessageOrAPayload() throws {
    let test = try TestInbox()
    try test.add("a", title: "Stored <b>")
    let stored = try test.inbox.render(.stored(id: "a"), theme: .dark)
    #expect(stored.html.contains("Stored &lt;b&gt;") && stored.html.contains("data-theme=\"dark\""))
    #expect(!stored.css.isEmpty)
    let drawn = try test.inbox.render(.payload(TestInbox.payload(title: "Fresh"), context: PayloadContext(id: "p")))
    #expect(drawn.card.id == "p" && drawn.html.contains("Fresh"))
    #expect(throws: InboxError.messageNotFound(id: "zzz")) { try test.inbox.render(.stored(id: "zzz")) }
  }
}
