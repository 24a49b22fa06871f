internal import CSQLite
import Synchronization

/// The SQL statements a connection ran while recording (SQLite's `sqlite3_trace_v2`), for tests
/// that prove how often a use case reads a table.
public final class StatementLog: Sendable {
  private let lines = Mutex<[String]>([])

  public init() {}

  /// Every statement run since recording started, as written (parameters unexpanded).
  public var statements: [String] { lines.withLock { $0 } }

  fileprivate func append(_ sql: String) { lines.withLock { $0.append(sql) } }
}

extension Database {
  /// Sends every statement this connection runs to `log`; nil stops. The log must outlive recording.
  func trace(into log: StatementLog?) {
    guard let log else {
      sqlite3_trace_v2(handle, 0, nil, nil)
      return
    }
    let context = Unmanaged.passUnretained(log).toOpaque()
    sqlite3_trace_v2(
      handle, UInt32(SQLITE_TRACE_STMT),
      { _, context, statement, _ in
        guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
        Unmanaged<StatementLog>.fromOpaque(context).takeUnretainedValue().append(String(cString: sql))
        return 0
      }, context)
  }
}

extension InboxStore {
  /// Runs `body` with every statement of the store's connections recorded into `log`.
  public func recording<T>(into log: StatementLog, _ body: () throws -> T) throws -> T {
    record(into: log)
    defer { record(into: nil) }
    return try body()
  }
}
