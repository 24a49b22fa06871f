import Foundation
import InboxCore
import InboxTestSupport
import JSON

@testable import InboxStore

/// A fresh store file in a temp directory of its own, removed at the end of the test.
final class TemporaryStore {
  let directory: URL
  let store: InboxStore
  var path: String { directory.appendingPathComponent("inbox.sqlite").path }

  init(_ name: String = "inbox.sqlite") throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    store = try InboxStore.open(InboxStore.Options(path: directory.appendingPathComponent(name).path))
  }

  deinit {
    try? store.close()
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Runs `body` on a copy of the version-1 store (Fixtures/store-v1.sqlite), opened, so migrated
/// to the latest schema, in a temp directory removed afterwards.
func withVersionOneStore<T>(_ body: (InboxStore) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-v1-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("old.sqlite").path
  try FileManager.default.copyItem(
    atPath: StoreFileTests.fixtures.appendingPathComponent("store-v1.sqlite").path, toPath: path)
  let store = try InboxStore.open(InboxStore.Options(path: path))
  defer { try? store.close() }
  return try body(store)
}

/// A backend-shaped message, read by the engine as the store would receive it.
func backendMessage(
  _ id: String, sentAt: Int64, expiresAt: Int64 = 4_102_444_800, pinned: Bool = false, order: String? = nil,
  status: Int64 = 1
) throws -> InboxMessage {
  let params: JSONValue = pinned ? ["u": ["pinned": true]] : [:]
  let payload: JSONValue = [
    "inbox_id": .string(id), "order": .string(order ?? String(sentAt)), "rt": .string(String(expiresAt)),
    "send_date": .int(sentAt), "title": .string("Title \(id)"), "text": "Body", "action_type": 0,
    "action_params": .string(params.jsonString), "status": .int(status), "hash": .string("H-\(id)"),
  ]
  return try Engine.ingest(payload: payload, context: IngestContext(now: sentAt)).message
}

extension InboxStore {
  @discardableResult
  func add(_ message: InboxMessage, now: Int64 = 1_800_000_000) throws -> InsertOutcome {
    try insert(message, pinned: message.isPinned, now: now)
  }
}
