import Dispatch
import Synchronization

/// The store's one writer, as GRDB's `SerializedDatabase` is: a serial queue that owns the writing
/// connection, so writes run one at a time, in the order they asked, each in one IMMEDIATE
/// transaction. A write that finds another process holding the store's lock is an outcome of its
/// own (`Begin.locked`); what it does then is the caller's to say.
final class StoreWriter: @unchecked Sendable {
  /// What starting a write met.
  enum Begin {
    case began
    /// Another process holds the store's write lock.
    case locked
  }

  // Unchecked: `database` is used only on `turn`.
  let database: Database
  private let turn = DispatchQueue(label: "inbox-rpc.store-writer")
  /// Writes holding or asking for the turn: `writeIfFree` takes it only when there are none.
  private let occupied = Atomic<Int>(0)

  init(database: Database) { self.database = database }

  /// Runs `body` on the writer, after the writes before it.
  func run<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T {
    occupied.add(1, ordering: .sequentiallyConsistent)
    defer { occupied.subtract(1, ordering: .sequentiallyConsistent) }
    return try onTurn(body)
  }

  /// Runs `body` on the writer if no other write holds or asks for it; nil (not run) otherwise.
  func runIfFree<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T? {
    guard occupied.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged else {
      return nil
    }
    defer { occupied.subtract(1, ordering: .sequentiallyConsistent) }
    return try onTurn(body)
  }

  /// `body` on `turn`. Its result goes through a slot on this stack and its error as `any Error`:
  /// Dispatch's generic `sync` keeps both in optionals of the generic type, whose metadata is
  /// looked up again on every call (the writer is generic over what a write returns, and every
  /// write comes through here).
  private func onTurn<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T {
    try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { (slot) throws(E) -> T in
      var failure: (any Error)?
      turn.sync {
        do {
          slot.initializeElement(at: 0, to: try body(database))
        } catch {
          failure = error
        }
      }
      if let failure { throw failure as! E }
      return slot.moveElement(from: 0)
    }
  }

  /// Begins an IMMEDIATE transaction; called on the writer. SQLite's busy handler is never given
  /// the wait: a write that finds another process holding the lock is `.locked`, and its caller
  /// says what follows (`InboxStore.write`: it is refused, having done nothing, and made again when
  /// the lock may be free by whoever waits for it as a callback).
  func begin() throws(StoreError) -> Begin {
    dispatchPrecondition(condition: .onQueue(turn))
    do {
      try database.run("BEGIN IMMEDIATE")
      return .began
    } catch  where error.kind == .busy {
      return .locked
    }
  }
}
