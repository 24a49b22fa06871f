/// Brings a store to the latest schema in place, one migration per IMMEDIATE transaction that
/// also records it, so a crash between two leaves a store at a well-defined version.
enum Migrator {
  static var latestVersion: Int { Migration.all.count }

  /// Checks what the file is, then applies the migrations it lacks.
  static func migrate(_ database: Database) throws {
    let version = try database.userVersion
    if version > latestVersion {
      throw StoreError(
        kind: .tooNew,
        message:
          "the store has schema version \(version), newer than this program's \(latestVersion); upgrade inbox-rpc")
    }
    if version == 0 {
      // A fresh file has no tables; anything else at version 0 is somebody else's database.
      let tables = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") ?? 0
      if tables > 0 {
        throw StoreError(kind: .corrupt, message: "the file is an SQLite database but not an inbox store")
      }
    }
    for (offset, migration) in Migration.all.enumerated() where offset >= version {
      try database.transaction {
        if offset == 0 {
          try database.execute(
            "CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) WITHOUT ROWID")
        }
        try database.execute(migration.sql)
        try database.run(
          "INSERT INTO schema_migrations (id, applied_at) VALUES (?, strftime('%s','now'))", [.text(migration.id)])
        try database.execute("PRAGMA user_version = \(offset + 1)")
      }
    }
  }
}
