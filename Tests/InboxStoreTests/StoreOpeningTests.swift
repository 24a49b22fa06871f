import Foundation
import InboxTestSupport
import Testing

@testable import InboxStore

/// Opening is honest with other programs' files, safe when two processes create one store at once,
/// and stops acknowledging writes once the file behind the store is gone.
struct StoreOpeningTests {
  func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-open-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  func foreignDatabase(_ path: String, setup: String) throws {
    let other = try Database(path: path)
    try other.execute(setup)
    try other.close()
  }

  @Test(arguments: [
    "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ada')",
    "PRAGMA user_version = 2; CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ada')",
    "PRAGMA journal_mode=WAL; PRAGMA user_version = 3; CREATE TABLE messages (id TEXT)",
  ])
  func anotherProgramsDatabaseIsRefusedWithoutAByteChanging(setup: String) throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("other.sqlite").path
    try foreignDatabase(path, setup: setup)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    do {
      _ = try InboxStore.open(InboxStore.Options(path: path))
      Issue.record("opened another program's database")
    } catch {
      #expect(error.kind == .corrupt)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "header or journal mode changed")
  }

  @Test func storesCreatedAtOnceByManyOpenersAgree() throws {
    for _ in 0..<20 {
      let directory = try scratch()
      defer { try? FileManager.default.removeItem(at: directory) }
      let path = directory.appendingPathComponent("new.sqlite").path
      let results = Results()
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        do {
          let store = try InboxStore.open(InboxStore.Options(path: path))
          results.add(.success(store.storeID))
          try store.close()
        } catch {
          results.add(.failure(error as? StoreError ?? StoreError(kind: .sqlite, message: "\(error)")))
        }
      }
      let ids = results.all.compactMap { try? $0.get() }
      #expect(ids.count == 4, "\(results.all)")
      #expect(Set(ids).count == 1, "openers disagree on the store id")
    }
  }

  @Test func aWriteAfterTheFileWasDeletedIsRefused() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 1))
    try FileManager.default.removeItem(atPath: temp.path)
    do {
      try temp.store.add(try backendMessage("b", sentAt: 2))
      Issue.record("acknowledged a write into a deleted file")
    } catch {
      #expect((error as? StoreError)?.kind == .fileGone)
    }
    #expect(throws: StoreError.self) { try temp.store.dismiss(id: "a", now: 3) }
  }

  @Test func aWriteAfterTheFileWasReplacedIsRefused() throws {
    let temp = try TemporaryStore()
    try temp.store.add(try backendMessage("a", sentAt: 1))
    try FileManager.default.moveItem(atPath: temp.path, toPath: temp.path + ".old")
    FileManager.default.createFile(atPath: temp.path, contents: nil)
    do {
      _ = try temp.store.markRead(ids: ["a"], now: 2)
      Issue.record("acknowledged a write into a replaced file")
    } catch {
      #expect((error as? StoreError)?.kind == .fileGone)
    }
  }
}

private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<String, StoreError>] = []
  func add(_ result: Result<String, StoreError>) { lock.withLock { results.append(result) } }
  var all: [Result<String, StoreError>] { lock.withLock { results } }
}
