import Foundation
import InboxCore
import InboxStore
import InboxTestSupport
import JSON
import Posix
import Synchronization
import Testing

@testable import InboxSync

/// A sync end to end over a scripted backend: what goes on the wire, what the store keeps.
struct SynchronizerTests {
  let now: Int64 = 1_800_000_000

  struct Rig {
    let temp: TemporaryStore
    let backend: FakeBackend
    let clock: TestClock
    let sync: Synchronizer
    var store: InboxStore { temp.store }
  }

  func rig(
    inbox: [JSONValue] = [], application: String? = "APP-1", userID: String? = "user-1",
    options: Synchronizer.Options = Synchronizer.Options(token: APIToken("tok"))
  ) throws -> Rig {
    let temp = try TemporaryStore()
    let backend = FakeBackend(inbox: inbox)
    let clock = TestClock(now)
    var options = options
    options.random = { 0 }
    let sync = try Synchronizer(store: temp.store, backend: backend, options: options, clock: { clock.now })
    if application != nil || userID != nil {
      _ = try sync.configure(
        BackendSettings.Patch(
          baseURL: .some(try BackendURL("http://127.0.0.1:9/json/1.3/")), application: .some(application),
          hwid: .some("hw-1"), userID: .some(userID)))
    }
    return Rig(temp: temp, backend: backend, clock: clock, sync: sync)
  }

  @Test func pushesThenFetchesThenMergesWithTheWireFields() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101"), wireMessage("b", order: "102")])
    try rig.store.ingest(wireMessage("a", order: "101"), now: now)
    _ = try rig.store.markRead(ids: ["a"], now: now)
    let report = try rig.sync.sync()
    #expect(report.pushed == 1)
    #expect(report.added == ["b"])
    #expect(report.pending == 0)
    #expect(try rig.store.feed(now: now) == ["a:2", "b:1"])

    let calls = rig.backend.calls
    #expect(calls.map(\.method) == [.inboxStatus, .getInboxMessages])
    let status = calls[0]
    #expect(status.baseURL.endpoint("inboxStatus") == "http://127.0.0.1:9/json/1.3/inboxStatus")
    #expect(status.token?.secret == "tok")
    #expect(
      status.request == [
        "application": "APP-1", "hwid": "hw-1", "userId": "user-1", "v": "0.1.0", "device_type": 3,
        "inbox_code": "101", "status": 2, "hash": "H-a",
      ])
    #expect(
      calls[1].request == ["application": "APP-1", "hwid": "hw-1", "userId": "user-1", "v": "0.1.0", "device_type": 3])
    #expect(String(decoding: calls[1].body, as: UTF8.self).hasPrefix(#"{"request":{"#))
  }

  @Test func withoutAUserIDTheHWIDIsSentAsUserID() throws {
    let rig = try rig(userID: nil)
    _ = try rig.sync.sync()
    #expect(rig.backend.calls.first?.request["userId"] == "hw-1")
  }

  @Test func notConfiguredWithoutAnApplication() throws {
    let rig = try rig(application: nil, userID: nil)
    #expect(throws: SyncFailure(.notConfigured(missing: ["application"]))) { try rig.sync.sync() }
    #expect(rig.backend.calls.isEmpty)
  }

  @Test func hwidIsGeneratedOnceAndKept() throws {
    let temp = try TemporaryStore()
    let first = try Synchronizer(store: temp.store, backend: FakeBackend(), options: .init(), clock: { 0 })
    let second = try Synchronizer(store: temp.store, backend: FakeBackend(), options: .init(), clock: { 0 })
    #expect(first.settings.hwid.count == 32)
    #expect(first.settings.hwid == second.settings.hwid)
  }

  /// A failed push stays queued with a retry time; the fetch still runs.
  @Test func aRefusedPushIsPostponedWithBackoffAndTheFetchGoesOn() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101")])
    try rig.store.ingest(wireMessage("a", order: "101"), now: now)
    _ = try rig.store.markRead(ids: ["a"], now: now)
    rig.backend.queue(.inboxStatus, .http(500, "oops"))
    let report = try rig.sync.sync()
    #expect(report.pushed == 0)
    #expect(report.failed == 1)
    #expect(report.pending == 1)
    let entry = try #require(try rig.store.outbox().first)
    #expect(entry.attempts == 1)
    #expect(entry.nextAttemptAt == now + 5)
    #expect(entry.lastError?.contains("HTTP 500") == true)
    #expect(try rig.store.feed(now: now) == ["a:2"])

    // The periodic sync waits for the retry time; an explicit one tries at once.
    rig.backend.queue(.inboxStatus, .http(503, ""))
    _ = try rig.sync.sync(force: true, respectBackoff: true)
    #expect(rig.backend.calls(.inboxStatus).count == 1)
    _ = try rig.sync.sync(force: true)
    #expect(rig.backend.calls(.inboxStatus).count == 2)
    #expect(try rig.store.outbox().first?.nextAttemptAt == now + 10)
    rig.clock.advance(10)
    let done = try rig.sync.sync(force: true, respectBackoff: true)
    #expect(done.pushed == 1)
    #expect(done.pending == 0)
  }

  /// The backend down: the first failure stops the push, the fetch error is what the sync reports.
  @Test func anUnavailableBackendStopsThePushAndFailsTheSync() throws {
    let rig = try rig()
    for id in ["a", "b", "c"] {
      try rig.store.ingest(wireMessage(id, order: "1\(id.utf8.first ?? 0)"), now: now)
    }
    _ = try rig.store.markRead(ids: ["a", "b", "c"], now: now)
    let down = SyncError.unavailable(method: "inboxStatus", reason: "Connection refused")
    rig.backend.queue(.inboxStatus, .failure(down))
    rig.backend.queue(.getInboxMessages, .failure(.unavailable(method: "getInboxMessages", reason: "refused")))
    do {
      _ = try rig.sync.sync()
      Issue.record("the sync succeeded")
    } catch {
      #expect(error.error == .unavailable(method: "getInboxMessages", reason: "refused"))
      #expect(error.partial.failed == 1)
      #expect(error.partial.pending == 3)
    }
    #expect(rig.backend.calls(.inboxStatus).count == 1)
    #expect(try rig.store.feed(now: now) == ["a:2", "b:2", "c:2"])
  }

  @Test func malformedAndRefusedFetchesChangeNothing() throws {
    let rig = try rig(inbox: [])
    try rig.store.ingest(wireMessage("a", order: "101"), now: now)
    for reply in [
      FakeBackend.Reply.http(200, ""), .http(200, "{oops"), .http(200, #"{"status_code":210,"status_message":"bad"}"#),
      .http(200, #"{"status_code":200,"response":{"deleted":[]}}"#), .http(301, ""),
    ] {
      rig.backend.queue(.getInboxMessages, reply)
      #expect(throws: SyncFailure.self) { try rig.sync.sync(force: true) }
      #expect(try rig.store.feed(now: now) == ["a:1"])
    }
  }

  /// The listed messages are parsed as the merge reads them: one that is not JSON, after one that
  /// is, fails the sync, and the transaction rolls back the one merged before it.
  @Test func aListedMessageThatIsNotJSONMergesNothing() throws {
    let rig = try rig(inbox: [])
    try rig.store.ingest(wireMessage("a", order: "101"), now: now)
    let good = wireMessage("b", order: "102").jsonString
    let body = #"{"status_code":200,"status_message":"OK","response":{"messages":["# + good + #",{"inbox_id":"c",}]}}"#
    rig.backend.queue(.getInboxMessages, .http(200, body))
    #expect(throws: SyncFailure.self) { try rig.sync.sync(force: true) }
    #expect(try rig.store.feed(now: now) == ["a:1"])
  }

  /// A push-only message read before the backend listed it: the read goes out in the same sync
  /// that gives the message its order.
  @Test func aPushOnlyChangeIsSentOnceASyncGivesItAnOrder() throws {
    let rig = try rig(inbox: [])
    try rig.store.ingest(pushPayload("p"), now: now)
    _ = try rig.store.markOpened(id: "p", now: now)
    let first = try rig.sync.sync(force: true)
    #expect(first.pushed == 0)
    #expect(first.pending == 2)
    #expect(try rig.store.feed(now: now) == ["p:3"])

    rig.backend.inbox = [wireMessage("p", order: "900")]
    let second = try rig.sync.sync(force: true)
    #expect(second.pushed == 2)
    #expect(second.pending == 0)
    let sent = rig.backend.calls(.inboxStatus).map {
      "\($0.request["inbox_code"]?.stringValue ?? "?"):\($0.request["status"]?.intValue ?? 0)"
    }
    #expect(sent == ["900:2", "900:3"])
    #expect(try rig.store.feed(now: now) == ["p:3"])
  }

  @Test func aDowngradeFromTheServerIsSentAgain() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101", status: 2)])
    _ = try rig.sync.sync(force: true)
    rig.backend.inbox = [wireMessage("a", order: "101", status: 1)]
    let report = try rig.sync.sync(force: true)
    #expect(report.pushed == 1)
    #expect(rig.backend.calls(.inboxStatus).last?.request["status"] == 2)
    #expect(try rig.store.feed(now: now) == ["a:2"])
  }

  @Test func fetchesAreThrottledUnlessForced() throws {
    var options = Synchronizer.Options()
    options.minFetchInterval = 10
    let rig = try rig(options: options)
    #expect(try rig.sync.sync().throttled == false)
    #expect(try rig.sync.sync().throttled == true)
    #expect(try rig.sync.sync(force: true).throttled == false)
    rig.clock.advance(10)
    #expect(try rig.sync.sync().throttled == false)
    #expect(rig.backend.calls(.getInboxMessages).count == 3)
  }

  /// A `base_url` in a reply moves later calls, and is kept with the store; an insecure one is ignored.
  @Test func baseURLSwitching() throws {
    let rig = try rig()
    rig.backend.queue(.getInboxMessages, .ok(["messages": []], baseURL: "http://127.0.0.2:7/json/1.3"))
    _ = try rig.sync.sync(force: true)
    #expect(rig.sync.effectiveBaseURL?.string == "http://127.0.0.2:7/json/1.3/")
    _ = try rig.sync.sync(force: true)
    #expect(rig.backend.calls.last?.baseURL.string == "http://127.0.0.2:7/json/1.3/")

    // Read back from the store, an http URL is used only when this run was given it.
    var given = Synchronizer.Options()
    given.clearTextBaseURL = try BackendURL("http://127.0.0.2:7/json/1.3/")
    let reopened = try Synchronizer(store: rig.store, backend: rig.backend, options: given, clock: { 0 })
    #expect(reopened.effectiveBaseURL?.string == "http://127.0.0.2:7/json/1.3/")
    let untrusting = try Synchronizer(store: rig.store, backend: rig.backend, options: .init(), clock: { 0 })
    #expect(untrusting.effectiveBaseURL?.string == "https://APP-1.api.pushwoosh.com/json/1.3/")
    #expect(untrusting.settings.baseURL == nil)

    rig.backend.queue(.getInboxMessages, .ok(["messages": []], baseURL: "http://evil.example.com/"))
    _ = try rig.sync.sync(force: true)
    #expect(rig.sync.effectiveBaseURL?.string == "http://127.0.0.2:7/json/1.3/")

    // Configuring another base URL forgets the one the backend named.
    _ = try rig.sync.configure(.init(baseURL: .some(try BackendURL("https://other.example.com/"))))
    #expect(rig.sync.effectiveBaseURL?.string == "https://other.example.com/")
  }

  /// A new user id clears the inbox; the old user's queued changes are still sent as the old user.
  @Test func anAccountChangeClearsTheInboxAndKeepsTheOldOutbox() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101")])
    _ = try rig.sync.sync(force: true)
    _ = try rig.store.markRead(ids: ["a"], now: now)
    try rig.store.ingest(pushPayload("p"), now: now)
    _ = try rig.store.markRead(ids: ["p"], now: now)
    let outcome = try rig.sync.configure(.init(userID: .some("user-2")))
    #expect(outcome.accountChanged)
    #expect(outcome.removed == ["a", "p"])
    #expect(outcome.dropped == 1)
    #expect(try rig.store.feed(now: now) == [])
    #expect(try rig.store.outboxSummary() == ["a:2@101!APP-1"])

    rig.backend.inbox = [wireMessage("z", order: "300")]
    let report = try rig.sync.sync(force: true)
    #expect(report.pushed == 1)
    #expect(report.added == ["z"])
    let sent = try #require(rig.backend.calls(.inboxStatus).last)
    #expect(sent.request["userId"] == "user-1")
    #expect(rig.backend.calls(.getInboxMessages).last?.request["userId"] == "user-2")

    // Same identity again, or a first application: nothing is cleared.
    #expect(try rig.sync.configure(.init(hwid: .some("hw-2"))).accountChanged == false)
    let fresh = try self.rig(application: nil, userID: nil)
    try fresh.store.ingest(wireMessage("a", order: "1"), now: now)
    #expect(try fresh.sync.configure(.init(application: .some("APP-9"))).accountChanged == false)
    #expect(try fresh.store.feed(now: now) == ["a:1"])
  }

  /// Cancelled between stages or mid-call: -32800 territory, the store stays consistent.
  @Test func aCancelledSyncKeepsTheStoreConsistent() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101"), wireMessage("b", order: "102")])
    try rig.store.ingest(wireMessage("a", order: "101"), now: now)
    _ = try rig.store.markRead(ids: ["a"], now: now)
    let cancellation = CancellationFlag()
    rig.backend.onCall = { call in if call.method == .getInboxMessages { cancellation.cancel() } }
    #expect(throws: SyncFailure.self) { try rig.sync.sync(force: true, cancellation: cancellation) }
    #expect(try rig.store.pendingCount() == 0)
    #expect(try rig.store.feed(now: now) == ["a:2"])
    #expect(try rig.sync.lastFetchAt() == nil)
  }

  @Test func progressStagesAndMergedEvent() throws {
    let rig = try rig(inbox: [wireMessage("a", order: "101")])
    let stages = Mutex<[String]>([])
    let merged = Mutex<[String]>([])
    let events = Synchronizer.Events(
      progress: { progress in stages.withLock { $0.append(progress.stage.rawValue) } },
      merged: { plan in merged.withLock { $0 += plan.added } })
    _ = try rig.sync.sync(force: true, events: events)
    #expect(stages.withLock { $0 } == ["push", "fetch", "merge", "merge", "done"])
    #expect(merged.withLock { $0 } == ["a"])
  }
}
