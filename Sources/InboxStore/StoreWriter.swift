import Synchronization

/// The store's one writer: it owns the writing connection, and one write at a time holds it. A
/// write takes it only when it is free and runs on its caller's thread; none waits for another.
/// One that finds it held is refused (`runIfFree` is nil) and its caller says what follows (the
/// scheduler runs it again when `freed` is called); work that must be done but need not answer at
/// once (close, a moved file's checkpoint, a statement log's switch) is handed to the holder,
/// which does it before it lets go (`whenFree`). A write that finds another process holding the
/// store's lock is an outcome of its own (`Begin.locked`).
final class StoreWriter: @unchecked Sendable {
  /// What starting a write met.
  enum Begin {
    case began
    /// Another process holds the store's write lock.
    case locked
  }

  typealias Work = @Sendable (Database) -> Void

  private struct State {
    var held = false
    /// A write was refused while the writer was held: `freed` is called when it is let go.
    var refused = false
    /// Work handed to the holder, done before it lets go.
    var handed: [Work] = []
  }

  // Unchecked: `database` is used only by the holder (`state.held`).
  private let database: Database
  private let state = Mutex(State())
  /// Called, with the writer free, after a holder that refused a write let go.
  private let freed: @Sendable () -> Void

  init(database: Database, freed: @escaping @Sendable () -> Void) {
    self.database = database
    self.freed = freed
  }

  /// Runs `body` on this thread if no other write holds the writer; nil (not run) otherwise.
  func runIfFree<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T? {
    let taken = state.withLock { state -> Bool in
      guard !state.held else {
        state.refused = true
        return false
      }
      state.held = true
      return true
    }
    guard taken else { return nil }
    defer { letGo() }
    return try body(database)
  }

  /// Does `work` now when the writer is free, else hands it to the holder, which does it before it
  /// lets go; true when it was done now.
  @discardableResult
  func whenFree(_ work: @escaping Work) -> Bool {
    let now = state.withLock { state -> Bool in
      guard !state.held else {
        state.handed.append(work)
        return false
      }
      state.held = true
      return true
    }
    guard now else { return false }
    work(database)
    letGo()
    return true
  }

  /// Does the work handed over meanwhile, then frees the writer.
  private func letGo() {
    while true {
      let (handed, refused) = state.withLock { state -> ([Work], Bool) in
        guard state.handed.isEmpty else {
          defer { state.handed = [] }
          return (state.handed, false)
        }
        defer { (state.held, state.refused) = (false, false) }
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
  /// says what follows (`InboxStore.write`: it is refused, having done nothing, and made again when
  /// the lock may be free by whoever waits for it as a callback).
  func begin() throws(StoreError) -> Begin {
    assert(state.withLock { $0.held }, "a write begins only on the writer it holds")
    do {
      try database.run("BEGIN IMMEDIATE")
      return .began
    } catch  where error.kind == .busy {
      return .locked
    }
  }
}
