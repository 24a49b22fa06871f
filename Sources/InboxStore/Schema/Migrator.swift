/// Tells an inbox store from other SQLite files, and brings it to the latest schema in place: one
/// migration per IMMEDIATE transaction that also records it, so a crash between two leaves a store at
/// a well-defined version, and two processes opening one new store at once apply each step once.
enum Migrator {
  static var latestVersion: Int { Migration.all.count }

  /// Refuses a database that is not an inbox store or is newer than this program, reading only.
  /// Refuses a file that is not an inbox store, or one newer than this program; its schema version.
  @discardableResult
  static func identify(_ database: Database) throws -> Int {
    // One read transaction: the version and the tables come from one state of the file, not from
    // before and after another process's migration.
    try database.execute("BEGIN")
    defer { try? database.execute("COMMIT") }
    let version = try database.userVersion
    if version > latestVersion {
      throw StoreError(
        kind: .tooNew,
        message:
          "the store has schema version \(version), newer than this program's \(latestVersion); upgrade inbox-rpc")
    }
    let tables = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") ?? 0
    let recorded =
      try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") ?? 0
    // A fresh file has no tables; a store records its migrations; anything else is another program's.
    if (version == 0 && tables > 0) || (version > 0 && recorded == 0) {
      throw StoreError(kind: .corrupt, message: "the file is an SQLite database but not an inbox store")
    }
    return version
  }

  /// The foreign-file check alone, inside a transaction already open.
  private static func identifyInside(_ database: Database) throws {
    let tables = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") ?? 0
    if tables > 0 {
      throw StoreError(kind: .corrupt, message: "the file is an SQLite database but not an inbox store")
    }
  }

  /// Applies the migrations the store lacks. Each step re-reads the version inside its write lock:
  /// another process may have applied it since this one looked. `known` is the version `identify`
  /// found (read now when nil): a store at the latest one needs no step, and a start takes no write
  /// lock for it, since versions only grow.
  static func migrate(_ database: Database, known: Int? = nil) throws {
    let version = try known ?? identify(database)
    guard version < latestVersion else { return }
    for (offset, migration) in Migration.all.enumerated() {
      try database.transaction {
        let version = try database.userVersion
        guard version == offset else { return }
        if offset == 0 {
          try identifyInside(database)
          try database.execute(
            "CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) WITHOUT ROWID")
        }
        try database.execute(migration.sql)
        try migration.backfill?(database)
        try database.run(
          "INSERT INTO schema_migrations (id, applied_at) VALUES (?, strftime('%s','now'))", [.text(migration.id)])
        try database.execute("PRAGMA user_version = \(offset + 1)")
      }
    }
  }
}
