import Foundation
import InboxCore
import InboxStore
import InboxSync
import InboxTestSupport
import JSON
import Testing

@testable import InboxApp

struct ConfigSyncUseCaseTests {
  @Test func savedAttributesOutliveTheInboxAndSessionOnesDoNot() throws {
    let test = try TestInbox()
    let saved = try test.inbox.configure(attributes: ["unreadFirst": true])
    #expect(saved.attributes.unreadFirst && saved.effects.changes == [FeedChange(.config)])
    let session = try test.inbox.configure(attributes: ["platform": "android"], scope: .session)
    #expect(session.effects.changes.isEmpty && session.attributes.unreadFirst)
    let reopened = try Inbox(store: test.store, sync: test.inbox.sync, clock: test.inbox.clock)
    #expect(reopened.attributes.unreadFirst && reopened.attributes != session.attributes)
  }

  @Test func badAttributesChangeNothing() throws {
    let test = try TestInbox()
    #expect(throws: InboxError.self) {
      try test.inbox.configure(
        attributes: ["forceCellKind": "grid"], backend: BackendSettings.Patch(application: "AAAAA-BBBBB"))
    }
    #expect(test.inbox.attributes == Attributes() && test.inbox.sync.settings.application == nil)
  }

  @Test func anAccountChangeClearsTheInbox() throws {
    let test = try TestInbox()
    _ = try test.inbox.configure(backend: BackendSettings.Patch(application: "AAAAA-BBBBB"))
    try test.add("a")
    let result = try test.inbox.configure(backend: BackendSettings.Patch(application: "CCCCC-DDDDD"))
    #expect(result.accountChange?.removed == ["a"])
    #expect(result.effects.changes == [FeedChange(.config, removed: ["a"])])
    #expect(result.backend.settings.application == "CCCCC-DDDDD")
  }

  @Test func aSyncWithoutAnApplicationFails() throws {
    let test = try TestInbox()
    #expect(throws: SyncFailure(.notConfigured(missing: ["application"]))) { try test.inbox.sync() }
  }

  @Test func aSyncReportsTheMergedChangeWhenItCommits() throws {
    let message: JSONValue = [
      "inbox_id": "remote", "order": "1", "rt": "4102444800", "send_date": .int(TestInbox.now - 10),
      "title": "From the backend", "text": "Body", "action_type": 0, "action_params": "{}", "status": 1, "hash": "H",
    ]
    let test = try TestInbox(backend: ListingBackend(messages: [message]))
    _ = try test.inbox.configure(backend: BackendSettings.Patch(application: "AAAAA-BBBBB"))
    let changes = ChangeLog()
    let report = try test.inbox.sync(observer: SyncObserver(changed: { changes.append($0) }))
    #expect(report.added == ["remote"])
    #expect(changes.all == [FeedChange(.sync, added: ["remote"])])
    #expect(try test.inbox.card(id: "remote").card.title == "From the backend")
  }
}

final class ChangeLog: @unchecked Sendable {
  private var changes: [FeedChange] = []
  private let lock = NSLock()
  func append(_ change: FeedChange) { lock.withLock { changes.append(change) } }
  var all: [FeedChange] { lock.withLock { changes } }
}
