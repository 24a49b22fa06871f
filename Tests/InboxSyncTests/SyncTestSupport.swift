import Foundation
import InboxCore
import InboxStore
import InboxSync
import InboxTestSupport
import JSON

/// A fresh store file in a temp directory of its own, removed at the end of the test.
final class TemporaryStore {
  let directory: URL
  let store: InboxStore
  var path: String { directory.appendingPathComponent("inbox.sqlite").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    store = try InboxStore.open(InboxStore.Options(path: directory.appendingPathComponent("inbox.sqlite").path))
  }

  deinit {
    try? store.close()
    try? FileManager.default.removeItem(at: directory)
  }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds: Int64
  init(_ seconds: Int64) { self.seconds = seconds }
  var now: Int64 { lock.withLock { seconds } }
  func advance(_ delta: Int64) { lock.withLock { seconds += delta } }
}

extension InboxStore {
  /// Ingests a payload the way `message.ingest` does.
  @discardableResult
  func ingest(_ payload: JSONValue, now: Int64) throws -> InsertOutcome {
    let (message, _) = try Engine.ingest(payload: payload, context: IngestContext(now: now))
    return try insert(message, pinned: message.isPinned, now: now)
  }

  /// `id:status` of every visible message, by id.
  func feed(now: Int64) throws -> [String] {
    try page(after: nil, limit: 10_000, unreadOnly: false, unreadFirst: false, now: now).messages
      .map { "\($0.id):\($0.status.rawValue)" }.sorted()
  }

  /// `id:status@order` of every queued change (`@-` without order), oldest first; retired ones
  /// carry `!` before the account's application.
  func outboxSummary() throws -> [String] {
    try outbox().map { entry in
      var text = "\(entry.messageID):\(entry.status.rawValue)@\(entry.order ?? "-")"
      if !entry.account.isEmpty {
        text += "!" + (try JSONValue.parse(entry.account)["application"]?.stringValue ?? "?")
      }
      return text
    }
  }
}
