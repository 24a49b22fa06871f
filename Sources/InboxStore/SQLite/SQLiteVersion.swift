internal import CSQLite

extension InboxStore {
  /// The SQLite this process loaded, as the library reports itself (not the header built against),
  /// so `--version` tells which one ran.
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
