import Foundation
import InboxCore
import InboxTestSupport
import Testing

@testable import InboxStore

/// Opening files that are not healthy stores: a clear error, and nothing overwritten.
struct StoreFileTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test func migratesAVersionOneStoreInPlaceKeepingItsData() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("store-v1.sqlite").path, toPath: path)
    let store = try InboxStore.open(InboxStore.Options(path: path))
    defer { try? store.close() }
    #expect(store.storeID == "0123456789abcdef")
    #expect(try store.read { try $0.userVersion } == Migrator.latestVersion)
    #expect(try store.message(id: "m-gone")?.isDismissed == true)
    #expect(try store.message(id: "m-read")?.readAt == 1_764_400_200)
    #expect(try store.outbox().map(\.attempts) == [0, 0])
    let page = try store.page(after: nil, limit: 10, unreadOnly: false, unreadFirst: false, now: 1_800_000_000)
    #expect(page.messages.map(\.id) == ["m-pinned", "m-read"])
    #expect(try store.setting("attributes")?["platform"] == "ios")
    #expect(try store.message(id: "m-pinned")?.message().title == "Pinned")
  }

  /// A store at the latest version needs no migration step: opening it takes no write lock for
  /// one (another process's write would make every start wait for it, once per migration).
  @Test func aStoreUpToDateIsNotLockedToBeMigrated() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("current.sqlite").path
    try InboxStore.open(InboxStore.Options(path: path)).close()
    let database = try Database(path: path)
    defer { try? database.close() }
    let log = StatementLog()
    database.trace(into: log)
    try Migrator.migrate(database)
    database.trace(into: nil)
    #expect(!log.statements.contains { $0.hasPrefix("BEGIN IMMEDIATE") }, "\(log.statements)")
    #expect(try database.userVersion == Migrator.latestVersion)
  }

  @Test func aFileThatIsNotSQLiteIsRefusedAndKept() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("notes.txt").path
    let text = String(repeating: "these are my notes, not a database\n", count: 200)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: StoreError.self) { try InboxStore.open(InboxStore.Options(path: path)) }
    do { _ = try InboxStore.open(InboxStore.Options(path: path)) } catch { #expect(error.kind == .corrupt) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
  }

  @Test func anotherProgramsDatabaseIsRefused() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("other.sqlite").path
    let other = try Database(path: path)
    try other.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ada')")
    try other.close()
    do {
      _ = try InboxStore.open(InboxStore.Options(path: path))
      Issue.record("opened another program's database")
    } catch {
      #expect(error.kind == .corrupt)
      #expect(error.message.contains("not an inbox store"))
    }
    let check = try Database(path: path)
    #expect(try check.scalar("SELECT count(*) FROM contacts") == 1)
    try check.close()
  }

  /// A store of 400 messages, closed cleanly, with a stretch of pages in the middle overwritten.
  func damagedStore(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("damaged.sqlite").path
    do {
      let store = try InboxStore.open(InboxStore.Options(path: path))
      for index in 0..<400 { try store.add(try backendMessage("m\(index)", sentAt: Int64(index))) }
      try store.close()
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: 8192)
    handle.write(Data(repeating: 0xA5, count: 16384))
    try handle.close()
    return path
  }

  func expectDamaged(_ body: () throws -> Void) {
    do {
      try body()
      Issue.record("served from a damaged store")
    } catch {
      #expect((error as? StoreError)?.kind == .corrupt)
    }
  }

  @Test func aDamagedStoreClosedCleanlyFailsAtTheFirstReadThatMeetsTheDamage() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try damagedStore(in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let store = try InboxStore.open(InboxStore.Options(path: path))
    expectDamaged { _ = try store.page(after: nil, limit: 400, unreadOnly: false, unreadFirst: false, now: 1) }
    // From then on every call fails, and nothing is written.
    expectDamaged { try store.add(try backendMessage("new", sentAt: 1)) }
    expectDamaged { _ = try store.counts(now: 1) }
    try store.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aDamagedStoreAfterAnUncleanEndIsFoundByTheBackgroundCheck() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try damagedStore(in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    FileManager.default.createFile(atPath: path + "-wal", contents: nil)  // what a killed process leaves
    let store = try InboxStore.open(InboxStore.Options(path: path))
    // A write is refused while the check runs (a write job is busy, made again when the check
    // ends), and after, for the damage the check found.
    do {
      try store.add(try backendMessage("early", sentAt: 1))
      Issue.record("wrote while the check ran")
    } catch let error as StoreError {
      #expect(error.kind == .busy)
    }
    store.waitUntilChecked()
    expectDamaged { try store.add(try backendMessage("new", sentAt: 1)) }
    expectDamaged { _ = try store.message(id: "m1") }
    try store.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aDamagedStoreIsRefusedAtOpenByTheFullCheck() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try damagedStore(in: directory)
    var options = InboxStore.Options(path: path)
    options.fullCheck = true
    expectDamaged { _ = try InboxStore.open(options) }
  }

  @Test func aTruncatedStoreIsRefusedAtOpen() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try damagedStore(in: directory)
    truncate(path, 12288)
    expectDamaged { _ = try InboxStore.open(InboxStore.Options(path: path)) }
    #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 12288)
  }

  /// After a kill in the middle of a checkpoint the file can be shorter than page 1 says while the
  /// log beside it still holds the missing pages: that is recovery's to finish, not damage.
  @Test func aShortFileWithALogBesideItIsLeftToRecovery() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try damagedStore(in: directory)
    truncate(path, 12288)
    #expect(throws: StoreError.self) { try StoreHeader.kind(of: path) }
    #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
    #expect(try StoreHeader.kind(of: path) == .database)
  }

  @Test func aStoreFromANewerVersionIsRefused() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("new.sqlite").path
    try InboxStore.open(InboxStore.Options(path: path)).close()
    let database = try Database(path: path)
    try database.execute("PRAGMA user_version = 99")
    try database.close()
    do {
      _ = try InboxStore.open(InboxStore.Options(path: path))
      Issue.record("opened a newer store")
    } catch {
      #expect(error.kind == .tooNew)
    }
  }

  @Test func aReadOnlyDirectoryGivesAClearError() throws {
    guard getuid() != 0 else { return }  // root writes anywhere; the end-to-end suite covers this as a user.
    let directory = try scratch()
    defer {
      chmod(directory.path, 0o700)
      try? FileManager.default.removeItem(at: directory)
    }
    chmod(directory.path, 0o500)
    do {
      _ = try InboxStore.open(InboxStore.Options(path: directory.appendingPathComponent("x.sqlite").path))
      Issue.record("opened a store in a read-only directory")
    } catch {
      #expect(error.kind == .cannotOpen)
    }
  }

  @Test func twoConnectionsOnOneFileBothWork() throws {
    let temp = try TemporaryStore()
    let second = try InboxStore.open(InboxStore.Options(path: temp.path))
    defer { try? second.close() }
    second.waitUntilChecked()  // the first's log is there: the second checks the store before it writes
    try temp.store.add(try backendMessage("a", sentAt: 1))
    #expect(try second.message(id: "a") != nil)
    #expect(try temp.store.counts(now: 5).total == 1)
    #expect(try second.dismiss(id: "a", now: 5))
    #expect(try temp.store.message(id: "a")?.isDismissed == true)
    #expect(try temp.store.counts(now: 5).total == 0, "counts cached across another connection's commit")
  }
}
