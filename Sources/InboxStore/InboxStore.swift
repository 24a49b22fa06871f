import InboxCore
import JSON
import Posix

/// The persistent inbox: messages with their local state, the outbox of unconfirmed status
/// changes, and settings, in one SQLite file (WAL).
///
/// Every method runs under one lock on one connection, and every change commits before the method
/// returns, so a reply written after it reports a change that is already durable (SPEC.md §6).
/// Two processes on one file are safe: SQLite's locking serialises them, and a writer waits up to
/// the busy timeout (5 s) before failing with `StoreError.Kind.busy`.
public final class InboxStore: @unchecked Sendable {
  /// Where and how to open the store.
  public struct Options: Sendable {
    public var path: String
    public var durability: StoreDurability = .normal
    /// `integrity_check` instead of the faster `quick_check` on open.
    public var fullCheck = false

    public init(path: String) { self.path = path }
  }

  /// A random id made when the store is created: cursors carry it, so one store's cursor is
  /// refused by another.
  public let storeID: String
  public let path: String

  // `lock` guards `database` and `countsCache`; every access goes through `read` or `write`.
  private let lock = ConditionLock()
  private let database: Database
  private var countsCache: (counts: FeedCounts, validUntil: Int64, dataVersion: Int64)?

  private init(database: Database, path: String, storeID: String) {
    self.database = database
    self.path = path
    self.storeID = storeID
  }

  /// Opens (creating if needed, mode 0600) and checks the store, and migrates it to the latest schema.
  public static func open(_ options: Options) throws(StoreError) -> InboxStore {
    let path = options.path
    if path != ":memory:" { try StoreFile.prepare(path) }
    let database = try Database(path: path, durability: options.durability)
    do {
      try check(database, full: options.fullCheck)
      try Migrator.migrate(database)
      let storeID = try Settings.storeID(database)
      return InboxStore(database: database, path: path, storeID: storeID)
    } catch {
      try? database.close()
      if let error = error as? StoreError { throw error }
      throw StoreError(kind: .sqlite, message: "\(error)")
    }
  }

  /// Refuses a damaged file or one that is not SQLite, before anything is written to it.
  private static func check(_ database: Database, full: Bool) throws {
    var problems: [String] = []
    try database.query(full ? "PRAGMA integrity_check" : "PRAGMA quick_check") { row in
      if let line = row.text(0), line != "ok" { problems.append(line) }
    }
    if !problems.isEmpty {
      throw StoreError(
        kind: .corrupt, message: "the store failed its integrity check: \(problems.prefix(3).joined(separator: "; "))")
    }
  }

  /// Closes the connection; the store must not be used afterwards.
  public func close() throws(StoreError) {
    lock.lock()
    defer { lock.unlock() }
    try database.close()
  }

  // MARK: - Confinement

  /// Runs a read under the lock.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(database)
  }

  /// Runs a change in one IMMEDIATE transaction under the lock; it has committed when this returns.
  @discardableResult
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    countsCache = nil
    return try database.transaction { try body(database) }
  }

  /// The cached counts while still valid, else `compute` under the lock (reads only).
  func cachedCounts(now: Int64, compute: (Database) throws -> (FeedCounts, Int64)) throws -> FeedCounts {
    lock.lock()
    defer { lock.unlock() }
    // data_version changes when another connection (another process) commits to the file.
    let dataVersion = try database.scalar("PRAGMA data_version") ?? 0
    if let cache = countsCache, now < cache.validUntil, cache.dataVersion == dataVersion { return cache.counts }
    let (counts, validUntil) = try compute(database)
    countsCache = (counts, validUntil, dataVersion)
    return counts
  }

}
