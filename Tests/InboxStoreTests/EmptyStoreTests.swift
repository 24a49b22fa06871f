import Foundation
import InboxTestSupport
import Testing

@testable import InboxStore

/// The empty store an in-memory store starts from is exactly what the migrations make from nothing.
/// `script/gen-empty-store` writes Sources/CEmptyStore/empty_store.c again after a migration is
/// added (this test fails until it is).
struct EmptyStoreTests {
  /// What a schema holds that a store depends on: every object's SQL, the version, the migrations
  /// recorded, and the rows the migrations put in (the counts' first row).
  private func contents(_ database: Database) throws -> [String] {
    var lines = ["user_version \(try database.userVersion)"]
    try database.query("SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY type, name") {
      lines.append([$0.text(0), $0.text(1), $0.text(2), $0.text(3)].map { $0 ?? "" }.joined(separator: " | "))
    }
    try database.query("SELECT id FROM schema_migrations ORDER BY id") { lines.append("migration \($0.text(0) ?? "")") }
    try database.query("SELECT * FROM feed_counts") { row in
      lines.append("feed_counts " + (0..<5).map { String(row.int($0)) }.joined(separator: ","))
    }
    return lines
  }

  private func migratedFromNothing() throws -> Database {
    let database = try Database(path: ":memory:")
    try database.configure(durability: .normal)
    try Migrator.migrate(database)
    return database
  }

  @Test func theImageIsWhatTheMigrationsMake() throws {
    let migrated = try migratedFromNothing()
    defer { try? migrated.close() }
    if let out = ProcessInfo.processInfo.environment["INBOX_RPC_WRITE_EMPTY_STORE"] {
      try EmptyStore.source(image: migrated.serialized()).write(toFile: out, atomically: true, encoding: .utf8)
    }
    #expect(EmptyStore.image.count > 0, "run script/gen-empty-store")
    let file = try MemoryStoreFile.make(image: EmptyStore.image)
    defer {
      close(file.fd)
      file.remove()
    }
    let loaded = try Database(path: file.path)
    defer { try? loaded.close() }
    #expect(try contents(loaded) == contents(migrated), "run script/gen-empty-store after changing a migration")
    #expect(try loaded.userVersion == Migrator.latestVersion)
  }

  @Test func anInMemoryStoreStartsFromTheImageAndWorks() throws {
    let store = try InboxStore.openInMemory()
    defer { try? store.close() }
    #expect(try store.isEmpty())
    try store.setSetting("k", .string("v"))
    #expect(try store.setting("k") == .string("v"))
  }
}
