import Foundation
import InboxApp
import InboxCore
import InboxStore
import InboxSync
import InboxTestSupport
import JSON

/// An inbox on a store of its own (deleted afterwards), its clock pinned, syncing with `backend`.
final class TestInbox {
  static let now: Int64 = 1_800_000_000
  let directory: String
  let store: InboxStore
  let inbox: Inbox

  init(backend: any Backend = UnreachableBackend(), token: APIToken? = nil) throws {
    directory = NSTemporaryDirectory() + "inbox-app-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    store = try InboxStore.open(InboxStore.Options(path: directory + "/inbox.sqlite"))
    let clock = InboxClock(pinned: Self.now)
    let sync = try Synchronizer(
      store: store, backend: backend, options: Synchronizer.Options(token: token), clock: { clock.now })
    inbox = try Inbox(store: store, sync: sync, clock: clock)
  }

  deinit {
    try? store.close()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Ingests a send-request notification object under `id`, `age` seconds old.
  @discardableResult
  func add(_ id: String, title: String = "Hello", data: JSONObject? = nil, days: Int64 = 30, age: Int64 = 0) throws
    -> IngestOutcome
  {
    inbox.clock.pin(Self.now - age)
    defer { inbox.clock.pin(Self.now) }
    return try inbox.ingest(payload: Self.payload(title: title, data: data, days: days), id: id)
  }

  static func payload(title: String = "Hello", data: JSONObject? = nil, days: Int64 = 30) -> JSONValue {
    var payload: JSONObject = ["ios_title": .string(title), "content": "Body", "inbox_days": .int(days)]
    if let data { payload["data"] = .object(data) }
    return .object(payload)
  }

  static let buttons: JSONObject = [
    "buttons": [
      ["title": "Read", "action": "markRead"], ["title": "Dismiss", "action": "dismiss"],
      ["title": "Site", "url": "https://example.com"],
    ]
  ]
}

/// A backend no call reaches: every call fails as unreachable.
struct UnreachableBackend: Backend {
  func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError) -> BackendEnvelope {
    throw .unavailable(method: call.method.rawValue, reason: "unreachable in tests")
  }
}

/// A backend that lists `messages` and confirms every status change.
struct ListingBackend: Backend {
  let messages: [JSONValue]

  func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError) -> BackendEnvelope {
    let response: JSONValue = call.method == .getInboxMessages ? ["messages": .array(messages), "deleted": []] : [:]
    let body = JSONValue.object(["status_code": 200, "status_message": "OK", "response": response]).jsonString
    return try BackendEnvelope.decode(method: call.method, httpStatus: 200, body: Array(body.utf8))
  }
}
