import Synchronization

/// The store's reading connections, as GRDB's `DatabasePool` keeps its readers: a read takes an
/// idle one, or opens another when every one is in use, so no read waits for another; each goes
/// back when its read ends. No more are ever open than reads have run at once, which the server's
/// scheduler bounds (the reader, its read queue, the background slots). The lock guards the list,
/// never a connection's work.
final class ReaderPool: Sendable {
  /// One connection, and the recording it was last set for.
  private final class Reader: @unchecked Sendable {
    // Unchecked: used by one read at a time, taken from and given back to the list (or, idle,
    // under its lock).
    let database: Database
    var tracing = 0

    init(_ database: Database) { self.database = database }
  }

  private struct State {
    var idle: [Reader] = []
    /// Where statements are recorded (`StatementLog`), and how often that changed: a connection
    /// taken is set to record there when it last was set for another.
    var log: StatementLog?
    var logChanges = 0
    /// The store file was moved: every connection, in use now or opened later, leaves the log.
    var leavesLog = false
    var closed = false
  }

  private let state = Mutex(State())

  /// Runs `body` on an idle connection, or on one `open` makes when none is idle.
  func read<T>(open: () throws(StoreError) -> Database, _ body: (Database) throws -> T) throws -> T {
    let (idle, log, changes, leavesLog) = state.withLock { ($0.idle.popLast(), $0.log, $0.logChanges, $0.leavesLog) }
    let reader = try idle ?? Reader(open())
    if reader.tracing != changes {
      reader.database.trace(into: log)
      reader.tracing = changes
    }
    if leavesLog { reader.database.leaveLogOnClose() }
    defer { giveBack(reader) }
    return try body(reader.database)
  }

  private func giveBack(_ reader: Reader) {
    let (closed, leavesLog) = state.withLock { state -> (Bool, Bool) in
      if !state.closed { state.idle.append(reader) }
      return (state.closed, state.leavesLog)
    }
    // A read that ended after the store closed closes its own connection.
    guard closed else { return }
    if leavesLog { reader.database.leaveLogOnClose() }
    try? reader.database.close()
  }

  /// Records the statements of every connection into `log` (nil: stops), the busy ones from their
  /// next read. (Idle connections are set under the lock: none runs a statement meanwhile.)
  func record(into log: StatementLog?) {
    state.withLock { state in
      state.log = log
      state.logChanges += 1
      for reader in state.idle {
        reader.database.trace(into: log)
        reader.tracing = state.logChanges
      }
    }
  }

  /// The store file was moved: no connection checkpoints into, or deletes, the log at the old name.
  func leaveLogOnClose() {
    state.withLock { state in
      state.leavesLog = true
      for reader in state.idle { reader.database.leaveLogOnClose() }
    }
  }

  /// Closes the idle connections; one in use closes when its read ends.
  func close() throws(StoreError) {
    let idle = state.withLock { state -> [Database] in
      state.closed = true
      defer { state.idle = [] }
      return state.idle.map(\.database)
    }
    for database in idle { try database.close() }
  }
}
