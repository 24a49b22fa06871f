internal import CSQLite
import JSON
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// One SQLite connection. Owns its handle: closes it if opening fails, and later only through
/// `close()`. Not thread-safe by itself: `InboxStore` confines it behind one lock.
final class Database {
  fileprivate(set) var handle: OpaquePointer?
  private var statements: [SQL: Statement] = [:]
  /// What the open transaction changed in the stored counts (`CountsTally`).
  var countChanges = FeedCounts()
  /// The settings the transaction in progress wrote (nil: removed), told to the store's start
  /// snapshot when it commits (`InboxStore.settingsAtOpen`).
  var settingsWritten: [String: JSONValue?] = [:]
  /// `PRAGMA data_version` when `InboxStore.changes(after:)` last read the change log through this
  /// connection (a reading one).
  var dataVersionSeen: Int64?

  /// Opens the file without writing to it: `configure` makes it a store connection once the file is
  /// known to be an inbox store (or new and empty). Until then a close never checkpoints into it.
  /// No connection is given a busy timeout: a statement that meets another connection's lock fails
  /// `busy` at once rather than sleep on its thread in SQLite's busy handler, and its caller says
  /// what follows (`InboxStore.write`, `InboxStore.read`).
  init(path: String, readOnly: Bool = false) throws(StoreError) {
    var opened: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &opened, flags, nil)
    handle = opened
    guard code == SQLITE_OK else {
      // sqlite3_open_v2 allocates a handle even on failure; it must be closed (SQLite docs).
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(opened)
      handle = nil
      throw StoreError(kind: .cannotOpen, code: code, message: "cannot open \(path): \(message)")
    }
    sqlite3_extended_result_codes(opened, 1)
    _ = csq_checkpoint_on_close(opened, 0)
  }

  /// WAL, the durability asked for, foreign keys; a close checkpoints again. A `throwaway` store's
  /// file goes when it closes (`MemoryStoreFile`): nothing is synced, and a close leaves the log.
  func configure(durability: StoreDurability, throwaway: Bool = false) throws(StoreError) {
    // Two processes creating one store switch it to WAL one after the other (`SignalFile.takeOpeningLock`).
    try execute("PRAGMA journal_mode=WAL")
    let synchronous = throwaway ? "OFF" : durability == .full ? "FULL" : "NORMAL"
    try execute("PRAGMA synchronous=\(synchronous)")
    try execute("PRAGMA foreign_keys=ON")
    _ = csq_checkpoint_on_close(handle, throwaway ? 0 : 1)
  }

  /// Keeps the write-ahead log file (emptied) when the connection closes, so the next open still
  /// finds it and knows the check it asks for has not been completed.
  func keepWriteAheadLogOnClose() {
    var on: Int32 = 1
    sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
  }

  /// Neither checkpoints nor deletes the write-ahead log when the connection closes: the store
  /// file was moved, and the log at the old name may be another store's by then.
  func leaveLogOnClose() {
    _ = csq_checkpoint_on_close(handle, 0)
    keepWriteAheadLogOnClose()
  }

  /// Defines the SQL function `name()` on this connection: 1 while `flag` is on, else 0. `flag`
  /// must outlive the connection.
  func define(_ name: String, answering flag: SQLFlag) throws(StoreError) {
    let code = sqlite3_create_function_v2(
      handle, name, 0, SQLITE_UTF8, Unmanaged.passUnretained(flag).toOpaque(),
      { context, _, _ in
        guard let context, let pointer = sqlite3_user_data(context) else { return }
        sqlite3_result_int(context, Unmanaged<SQLFlag>.fromOpaque(pointer).takeUnretainedValue().isOn ? 1 : 0)
      }, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql: nil) }
  }

  /// Makes a running statement on this connection stop with SQLITE_INTERRUPT (any thread may call it).
  func interrupt() { sqlite3_interrupt(handle) }

  /// The bytes of this connection's database (`sqlite3_serialize`): what an in-memory store's file
  /// starts as (`EmptyStore`).
  func serialized() -> [UInt8] {
    var size: Int64 = 0
    guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else { return [] }
    defer { sqlite3_free(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
  }

  deinit {
    assert(handle == nil, "Database deallocated without close()")
    if let handle { sqlite3_close_v2(handle) }
  }

  /// Finalises cached statements, then closes the handle.
  func close() throws(StoreError) {
    statements.removeAll()
    guard let handle else { return }
    let code = sqlite3_close(handle)
    guard code == SQLITE_OK else { throw error(code, sql: nil) }
    self.handle = nil
  }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(StoreError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// A prepared statement for `sql`, cached for the life of the connection.
  func statement(_ sql: SQL) throws(StoreError) -> Statement {
    if let cached = statements[sql] { return cached }
    let prepared = try Statement(database: self, sql: sql.text)
    statements[sql] = prepared
    return prepared
  }

  /// Runs `sql` with `values`, for statements that return no rows; returns the rows changed.
  @discardableResult
  func run(_ sql: SQL, _ values: [SQLValue] = []) throws(StoreError) -> Int {
    let prepared = try statement(sql)
    prepared.bind(values)
    while try prepared.step() {}
    return Int(sqlite3_changes(handle))
  }

  /// Calls `row` for each result row of `sql`.
  func query(_ sql: SQL, _ values: [SQLValue] = [], row: (Statement) throws -> Void) throws {
    let prepared = try statement(sql)
    prepared.bind(values)
    while try prepared.step() { try row(prepared) }
  }

  /// The first column of the first row, as an integer.
  func scalar(_ sql: SQL, _ values: [SQLValue] = []) throws -> Int64? {
    var result: Int64?
    try query(sql, values) { row in if result == nil { result = row.optionalInt(0) } }
    return result
  }

  /// Rows this connection changed since it opened, beside the number SQLite moves on every commit by
  /// another connection: the file is the same as when two equal marks were read (SQLite documents
  /// both as never going back; DDL is never run once a store is open).
  func changeMark() throws -> [Int64] {
    [Int64(sqlite3_total_changes64(handle)), try scalar("PRAGMA data_version") ?? 0]
  }

  /// Runs `body` in an IMMEDIATE transaction (the write lock is taken up front, so two writers
  /// never deadlock upgrading). A throw rolls back, and the body's error is the one rethrown.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    // Prepared once and kept, like every statement: parsing them costs a small write a tenth of its time.
    try run("BEGIN IMMEDIATE")
    return try committing(body)
  }

  /// Runs `body` in the transaction just begun: commits it, or rolls it back when `body` throws.
  func committing<T>(_ body: () throws -> T) throws -> T {
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  var userVersion: Int {
    get throws { Int((try scalar("PRAGMA user_version")) ?? 0) }
  }

  func error(_ code: Int32, sql: String?) -> StoreError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
    let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
    let kind: StoreError.Kind =
      switch code & 0xFF {
      // A refused write: the size limit (EFBIG), a full disk, or the write error SQLite reports for them.
      case SQLITE_IOERR where systemError == EFBIG || systemError == ENOSPC || code == SQLITE_IOERR | (3 << 8): .full
      case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
      case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM: .cannotOpen
      case SQLITE_BUSY, SQLITE_LOCKED: .busy
      case SQLITE_FULL: .full
      default: .sqlite
      }
    return StoreError(kind: kind, code: code, message: message, sql: sql)
  }
}
