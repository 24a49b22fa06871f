import Synchronization

/// Who reads the host's input: one thread at a time holds the turn. A write run on the reading
/// thread (its writer was free) that has to wait after all hands the turn to a new thread, which
/// goes on reading; the old one finishes its write and stops. The turn is a value passed along,
/// not a thread's identity.
final class ReadingTurn: Sendable {
  let input: Int32
  private let held = Atomic<Bool>(true)

  init(input: Int32) { self.input = input }

  /// False once the turn was handed over.
  var holds: Bool { held.load(ordering: .sequentiallyConsistent) }

  /// Gives the turn up; true for the one call that did.
  fileprivate func giveUp() -> Bool {
    held.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged
  }
}

/// The turn in force.
final class ReadingTurns: Sendable {
  private let current = Mutex<ReadingTurn?>(nil)

  func first(input: Int32) -> ReadingTurn {
    let turn = ReadingTurn(input: input)
    current.withLock { $0 = turn }
    return turn
  }

  /// Hands the turn in force to a new one, which the caller starts a thread for; nil when there
  /// is none (a connection fed through `receive`) or it was handed over already.
  func handOver() -> ReadingTurn? {
    current.withLock { current in
      guard let turn = current, turn.giveUp() else { return nil }
      let next = ReadingTurn(input: turn.input)
      current = next
      return next
    }
  }
}
