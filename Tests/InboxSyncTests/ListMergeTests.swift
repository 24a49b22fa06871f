import InboxCore
import InboxStore
import JSON
import Synchronization
import Testing

@testable import InboxSync

/// The merge of a sync reads and writes one listed message at a time; it decides and stores exactly
/// what the whole plan (`Merge.plan`) does, and stays one transaction.
struct ListMergeTests {
  /// The reply of `response` as the backend sends it, decoded as a sync decodes it.
  private func envelope(_ response: JSONValue) throws -> BackendEnvelope {
    let body: JSONValue = ["status_code": 200, "status_message": "OK", "response": response]
    return try BackendEnvelope.decode(method: .getInboxMessages, httpStatus: 200, body: body.serialized())
  }

  /// Every row of the store, dismissed ones included, by id.
  private func rows(_ store: InboxStore) throws -> [StoredMessage] {
    try store.syncTransaction { try $0.messages() }.sorted { $0.id < $1.id }
  }

  @Test(arguments: MergeCase.all)
  func everyRuleStoresWhatTheWholePlanStores(_ rule: MergeCase) throws {
    let whole = try rule.prepare()
    let plan = try whole.store.syncTransaction { transaction in
      let plan = Merge.plan(
        local: try transaction.messages(), pending: try transaction.pendingOutbox(),
        remote: try RemoteInbox.parse(rule.response, now: MergeCase.mergeTime), now: MergeCase.mergeTime)
      try plan.apply(to: transaction, now: MergeCase.mergeTime)
      return plan
    }
    let listed = try rule.prepare()
    let reply = try envelope(rule.response)
    let outcome = try listed.store.syncTransaction { transaction in
      try ListMerge.run(reply, in: transaction, now: MergeCase.mergeTime, limit: .standard) { false }
    }
    #expect(outcome.changes.writes.isEmpty, "written as they were read, not kept")
    #expect(outcome.changes.added == plan.added)
    #expect(outcome.changes.updated == plan.updated)
    #expect(outcome.changes.removed == plan.removed)
    #expect(outcome.changes.expired == plan.expired)
    #expect(try rows(listed.store) == rows(whole.store))
    #expect(try listed.store.outboxSummary() == whole.store.outboxSummary(), "the same changes, in the same order")
    #expect(try listed.store.counts(now: MergeCase.mergeTime) == whole.store.counts(now: MergeCase.mergeTime))
  }

  /// Each skip is told in list order, and a message too deep to read is skipped alone, its stored
  /// copy kept.
  @Test func skippedItemsAreWarnedAndTheirCopiesKept() throws {
    let temp = try TemporaryStore()
    try temp.store.ingest(wireMessage("deep", order: "5"), now: MergeCase.ingestTime)
    var deep = JSONValue.array([])
    for _ in 0..<70 { deep = .array([deep]) }
    var tooDeep = wireMessage("deep", order: "5")
    if case .object(var object) = tooDeep {
      object["nest"] = deep
      tooDeep = .object(object)
    }
    let response: JSONValue = [
      "messages": [wireMessage("a", order: "1"), 7, ["order": "2"], wireMessage("a", order: "1"), tooDeep],
      "deleted": [true],
    ]
    let outcome = try temp.store.syncTransaction { transaction in
      try ListMerge.run(try envelope(response), in: transaction, now: MergeCase.mergeTime, limit: .standard) { false }
    }
    #expect(outcome.changes.added == ["a"])
    #expect(outcome.messageCount == 1)
    #expect(
      outcome.warnings.map(\.messageId) == [
        "response.messages[1]", "response.messages[2]", "a", "deep", "response.deleted[0]",
      ])
    #expect(outcome.changes.removed.isEmpty, "the copy of a message listed but unreadable stays")
    #expect(try temp.store.feed(now: MergeCase.mergeTime) == ["a:1", "deep:1"])
  }

  /// A list of several batches, read one batch ahead of the writes, is merged as the whole list
  /// is: a copy listed again in a later batch is skipped, and the skips are told in list order.
  @Test func aListOfManyBatchesIsMergedAsTheWholeList() throws {
    let count = ReadAhead.batchSize * 4 + 3
    let list: [JSONValue] = (0..<count).map { index in
      if index % 131 == 7 { return 7 }
      if index % 97 == 50 { return wireMessage("m\(index - ReadAhead.batchSize / 2)", order: "1") }
      return wireMessage("m\(index)", order: "\(index + 10)")
    }
    let response: JSONValue = ["messages": .array(list)]
    let remote = try RemoteInbox.parse(response, now: MergeCase.mergeTime)
    let temp = try TemporaryStore()
    let outcome = try temp.store.syncTransaction { transaction in
      try ListMerge.run(try envelope(response), in: transaction, now: MergeCase.mergeTime, limit: .standard) { false }
    }
    #expect(outcome.changes.added == remote.messages.map(\.id))
    #expect(outcome.messageCount == remote.messages.count)
    #expect(outcome.warnings == remote.warnings)
    #expect(!outcome.warnings.isEmpty)
  }

  /// A cancel between two messages rolls back every row the merge wrote before it.
  @Test func aCancelInTheMiddleLeavesNothingMerged() throws {
    let temp = try TemporaryStore()
    try temp.store.ingest(wireMessage("kept", order: "1"), now: MergeCase.ingestTime)
    let list = (0..<2_000).map { wireMessage("m\($0)", order: "\($0 + 10)") }
    let reply = try envelope(["messages": .array(list)])
    let asked = Atomic<Int>(0)
    #expect(throws: SyncError.cancelled) {
      try temp.store.syncTransaction { transaction in
        try ListMerge.run(reply, in: transaction, now: MergeCase.mergeTime, limit: .standard) {
          asked.add(1, ordering: .relaxed).newValue > 3
        }
      }
    }
    #expect(asked.load(ordering: .relaxed) == 4, "asked between batches of messages, and stopped at once")
    #expect(try temp.store.feed(now: MergeCase.mergeTime) == ["kept:1"])
  }
}
