import InboxCore
import InboxStore
import JSON
import Testing

@testable import InboxSync

/// A repeated reply skips its merge only where the merge would change nothing.
struct RepeatedReplyTests {
  /// The reply of `response` as the backend sends it.
  private func envelope(_ response: JSONValue) throws -> BackendEnvelope {
    let body: JSONValue = ["status_code": 200, "status_message": "OK", "response": response]
    return try BackendEnvelope.decode(method: .getInboxMessages, httpStatus: 200, body: body.serialized())
  }

  /// One sync's merge, as `Synchronizer` runs it.
  private func merge(
    _ store: InboxStore, _ memo: RepeatedReply, _ reply: BackendEnvelope, now: Int64
  ) throws -> (plan: MergePlan, skipped: Bool) {
    let candidate = memo.candidate(body: reply.body, now: now)
    let before = try store.syncTransaction { try $0.generation() }
    let result = try store.syncTransaction { transaction in
      try memo.merge(reply, candidate: candidate, in: transaction, now: now) { _ in }
    }
    if let merged = result.merged { memo.remember(merged) }
    return (result.plan, candidate != nil && candidate?.generation == before)
  }

  /// Every merge rule: the reply merged again on the store it left is skipped, and the store is as
  /// the full merge leaves it (which plans nothing: `MergeTests` checks the merge converges in one step).
  @Test(arguments: MergeCase.all)
  func aRepeatOfEveryRuleIsSkippedAndChangesNothing(_ rule: MergeCase) throws {
    let temp = try rule.prepare()
    let memo = RepeatedReply()
    let reply = try envelope(rule.response)
    let first = try merge(temp.store, memo, reply, now: MergeCase.mergeTime)
    #expect(!first.skipped)
    #expect(first.plan.added == rule.added)
    let feed = try temp.store.feed(now: MergeCase.mergeTime)
    let outbox = try temp.store.outboxSummary()
    let again = try merge(temp.store, memo, reply, now: MergeCase.mergeTime + 1)
    #expect(again.skipped)
    #expect(again.plan.isEmpty && again.plan.added.isEmpty && again.plan.removed.isEmpty)
    #expect(try temp.store.feed(now: MergeCase.mergeTime) == feed)
    #expect(try temp.store.outboxSummary() == outbox)
  }

  /// The sync's own bookkeeping after a merge (its outcome, recorded for the other processes) is
  /// carried over: the next repeat is still skipped. Any other write in between is not.
  @Test func theSyncsOwnRecordDoesNotUndoTheMemo() throws {
    let temp = try TemporaryStore()
    let memo = RepeatedReply()
    let reply = try envelope(["messages": [wireMessage("a", order: "1")]])
    _ = try merge(temp.store, memo, reply, now: MergeCase.mergeTime)
    try temp.store.syncTransaction { transaction in
      try memo.carrying(over: transaction) { try $0.setSetting("sync.outcome", ["run": 1]) }
    }
    #expect(try merge(temp.store, memo, reply, now: MergeCase.mergeTime + 1).skipped)

    try temp.store.setSetting("elsewhere", ["run": 2])
    try temp.store.syncTransaction { transaction in
      try memo.carrying(over: transaction) { try $0.setSetting("sync.outcome", ["run": 3]) }
    }
    #expect(!(try merge(temp.store, memo, reply, now: MergeCase.mergeTime + 2).skipped))
  }

  /// A local change after the merge makes the next one read the store: the re-send it needs is planned.
  @Test func aLocalChangeSinceTheMergeIsMerged() throws {
    let temp = try TemporaryStore()
    let memo = RepeatedReply()
    let reply = try envelope(["messages": [wireMessage("a", order: "1")]])
    _ = try merge(temp.store, memo, reply, now: MergeCase.mergeTime)
    _ = try temp.store.markRead(ids: ["a"], now: MergeCase.mergeTime)
    for entry in try temp.store.outbox() { try temp.store.confirm(entry) }
    let again = try merge(temp.store, memo, reply, now: MergeCase.mergeTime + 1)
    #expect(!again.skipped)
    #expect(try temp.store.outbox().map(\.messageID) == ["a"], "the re-send is queued")
  }

  /// Another body, an expiry reached, or a clock gone back: no candidate.
  @Test func onlyTheSameBodyBeforeTheNextExpiryIsACandidate() throws {
    let temp = try TemporaryStore()
    let memo = RepeatedReply()
    let expiry = MergeCase.mergeTime + 100
    let reply = try envelope(["messages": [wireMessage("a", order: "1"), wireMessage("b", order: "2", rt: expiry)]])
    _ = try merge(temp.store, memo, reply, now: MergeCase.mergeTime)
    #expect(memo.candidate(body: reply.body, now: expiry - 1) != nil)
    #expect(memo.candidate(body: reply.body, now: expiry) == nil)
    #expect(memo.candidate(body: reply.body, now: MergeCase.mergeTime - 1) == nil)
    let other = try envelope(["messages": [wireMessage("a", order: "1")]])
    #expect(memo.candidate(body: other.body, now: MergeCase.mergeTime) == nil)
    // Past the expiry the merge runs and removes the expired message.
    let later = try merge(temp.store, memo, reply, now: expiry)
    #expect(!later.skipped)
    #expect(later.plan.expired == ["b"])
  }

  /// Each message's stored payload is the text the parser dumped, the same as writing the message out.
  @Test func parsedTextsAreTheMessagesWrittenOut() throws {
    let reply = try envelope([
      "messages": [
        wireMessage("a", order: "1"),
        ["inbox_id": 7, "order": 8, "text": "t\u{0}é", "n": 1.5, "rt": "4102444800", "action_params": "{}"],
      ]
    ])
    let remote = try RemoteInbox.parse(reply, now: MergeCase.mergeTime)
    #expect(reply.messageItems?.count == 2)
    #expect(remote.payloads == remote.messages.map(\.raw.jsonString))
  }
}

/// A known reply comes back unparsed only for the same bytes with HTTP 200, and reads as it did.
@Test func aKnownReplyRepeatsOnlyForItsOwnBytes() throws {
  let body: JSONValue = [
    "status_code": 200, "base_url": "https://b.example/json/1.3/",
    "response": ["messages": [wireMessage("a", order: "1")]],
  ]
  let bytes = body.serialized()
  let known = try BackendEnvelope.decode(method: .getInboxMessages, httpStatus: 200, body: bytes)
  #expect(known.repeated(httpStatus: 500, body: bytes) == nil)
  #expect(known.repeated(httpStatus: 200, body: bytes + [0x20]) == nil)
  let repeated = try #require(known.repeated(httpStatus: 200, body: bytes))
  #expect(repeated.isRepeat && repeated.response == nil)
  #expect(repeated.baseURL == known.baseURL)
  #expect(try repeated.parsed() == known)
  #expect(try RemoteInbox.parse(repeated, now: 1) == RemoteInbox.parse(known, now: 1))
}
