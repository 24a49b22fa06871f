internal import CSQLite

/// A prepared statement; finalised in `deinit`. Used only under its database's lock.
final class Statement {
  private let handle: OpaquePointer
  private unowned let database: Database
  let sql: String

  init(database: Database, sql: String) throws(StoreError) {
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    guard code == SQLITE_OK, let prepared else { throw database.error(code, sql: sql) }
    handle = prepared
    self.database = database
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement and binds `values` to its `?` parameters in order.
  func bind(_ values: [SQLValue]) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      // Binding fails only for an index out of range or a closed statement: programming errors.
      let code: Int32 =
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .int(let number): sqlite3_bind_int64(handle, index, number)
        case .double(let number): sqlite3_bind_double(handle, index, number)
        case .text(let text): bindText(text, at: index)
        }
      precondition(code == SQLITE_OK, "binding parameter \(index) of \(sql) failed: \(code)")
    }
  }

  /// Binds by byte length, never up to a NUL: "a\0b" and "a\0c" stay two texts (SQLite copies them).
  private func bindText(_ text: String, at index: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { bytes in
      // A nil pointer would bind NULL; the empty text needs a real (empty) one.
      guard let start = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csq_transient()) }
      return sqlite3_bind_text64(handle, index, start, UInt64(bytes.count), csq_transient(), UInt8(SQLITE_UTF8))
    }
  }

  /// Advances to the next row; false when done.
  func step() throws(StoreError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE:
      sqlite3_reset(handle)
      return false
    default:
      let error = database.error(code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }

  func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}
