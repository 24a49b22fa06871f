import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The store's one writer: it owns the writing connection, and one thread at a time holds it, for
/// one write or for a write job's writes (`holdingForJob`). A write takes it only when it is free
/// and runs on its caller's thread; none waits for another. One that finds it held by another
/// thread is refused (`run` is nil) and its caller says what follows (the write is busy, made again
/// when `freed` is called); one made inside another write on the same thread is a programming
/// error and stops there, as GRDB's `SerializedDatabase` does. Work that must be done but need not
/// answer at once (close, a moved file's checkpoint, a statement log's switch) is handed to the
/// holder, which does it before it lets go (`whenFree`). A write that finds another process holding
/// the store's lock is an outcome of its own (`Begin.locked`).
final class StoreWriter: @unchecked Sendable {
  /// What starting a write met.
  enum Begin {
    case began
    /// Another process holds the store's write lock.
    case locked
  }

  typealias Work = @Sendable (Database) -> Void

  private struct State {
    /// The thread holding the writer; nil when it is free.
    var holder: pthread_t?
    /// A write was refused while the writer was held: `freed` is called when it is let go.
    var refused = false
    /// Work handed to the holder, done before it lets go.
    var handed: [Work] = []
  }

  // Unchecked: `database` is used only by the holder (`state.holder`).
  private let database: Database
  private let state = Mutex(State())
  /// The holder is in a write (a transaction begun or about to be); touched by the holder only.
  private var writing = false
  /// Called, with the writer free, after a holder that refused a write let go.
  private let freed: @Sendable () -> Void

  init(database: Database, freed: @escaping @Sendable () -> Void) {
    self.database = database
    self.freed = freed
  }

  /// Runs `body` on this thread if no other thread holds the writer (or this thread's write job
  /// does: `body` learns so); nil (not run) otherwise.
  func run<T, E: Error>(_ body: (Database, _ inJob: Bool) throws(E) -> T) throws(E) -> T? {
    let me = Self.thisThread
    let taken = state.withLock { state -> Bool? in
      if let holder = state.holder {
        guard pthread_equal(holder, me) != 0 else {
          state.refused = true
          return nil
        }
        return false
      }
      state.holder = me
      return true
    }
    guard let taken else { return nil }
    if taken {
      writing = true
      defer { letGo() }
      return try body(database, false)
    }
    // This thread's job holds the writer: only this thread reads or sets `writing` meanwhile.
    precondition(!writing, Self.reentrant)
    writing = true
    defer { writing = false }
    return try body(database, true)
  }

  /// `run` for a write that need not know whether a job holds the writer.
  func run<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T? {
    try run { database, _ throws(E) in try body(database) }
  }

  /// Takes the writer for a write job on this thread, its writes made within until `letGo`; false
  /// (not taken) when another thread holds it.
  func takeForJob() -> Bool {
    let me = Self.thisThread
    return state.withLock { state -> Bool in
      if let holder = state.holder {
        precondition(pthread_equal(holder, me) == 0, Self.reentrant)
        state.refused = true
        return false
      }
      state.holder = me
      return true
    }
  }

  /// The calling thread. Only the writer asks (`script/check-waits.allowed`): not to schedule, but
  /// to run a write job's own writes within it and to stop a write made inside another, as GRDB's
  /// `SerializedDatabase` checks its queue.
  private static var thisThread: pthread_t { pthread_self() }

  private static let reentrant =
    "a store write was made inside another write on the same thread: writes are not reentrant"

  /// Does `work` now when the writer is free, else hands it to the holder, which does it before it
  /// lets go; true when it was done now.
  @discardableResult
  func whenFree(_ work: @escaping Work) -> Bool {
    let now = state.withLock { state -> Bool in
      guard state.holder == nil else {
        state.handed.append(work)
        return false
      }
      state.holder = Self.thisThread
      return true
    }
    guard now else { return false }
    work(database)
    letGo()
    return true
  }

  /// Does the work handed over meanwhile, then frees the writer.
  func letGo() {
    writing = false
    while true {
      let (handed, refused) = state.withLock { state -> ([Work], Bool) in
        guard state.handed.isEmpty else {
          defer { state.handed = [] }
          return (state.handed, false)
        }
        defer { (state.holder, state.refused) = (nil, false) }
        return ([], state.refused)
      }
      guard !handed.isEmpty else {
        if refused { freed() }
        return
      }
      for work in handed { work(database) }
    }
  }

  /// Begins an IMMEDIATE transaction; called by the holder. SQLite's busy handler is never given
  /// the wait: a write that finds another process holding the lock is `.locked`, and its caller
  /// says what follows (`InboxStore.write`: it is busy, having done nothing).
  func begin() throws(StoreError) -> Begin {
    assert(state.withLock { $0.holder != nil }, "a write begins only on the writer it holds")
    do {
      try database.run("BEGIN IMMEDIATE")
      return .began
    } catch  where error.kind == .busy {
      return .locked
    }
  }
}
