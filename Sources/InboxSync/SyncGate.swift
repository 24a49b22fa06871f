import Dispatch
import Posix
import Synchronization

/// One sync at a time: a caller that finds one running waits its turn, in arrival order, on a
/// semaphore of its own; leaving hands the turn to the next. A waiter cancelled before its turn is
/// woken at once (no polling) and leaves the line.
final class SyncGate: Sendable {
  private struct State {
    var busy = false
    var waiting: [(id: Int, turn: DispatchSemaphore)] = []
    var nextID = 0
  }

  private let state = Mutex(State())

  /// Waits for the turn; false when cancelled first (the caller then does not hold the gate).
  func enter(_ cancellation: any Cancellable) -> Bool {
    let turn = DispatchSemaphore(value: 0)
    let ticket = state.withLock { state -> Int? in
      guard state.busy else {
        state.busy = true
        return nil
      }
      state.nextID += 1
      state.waiting.append((state.nextID, turn))
      return state.nextID
    }
    guard let ticket else { return true }
    cancellation.onCancel { turn.signal() }
    turn.wait()
    // Still in line: the cancel woke us. Out of line: `leave` handed us the turn.
    return state.withLock { state in
      guard let index = state.waiting.firstIndex(where: { $0.id == ticket }) else { return true }
      state.waiting.remove(at: index)
      return false
    }
  }

  /// How many callers wait their turn.
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Hands the turn to the next in line, or frees the gate.
  func leave() {
    state.withLock { state in
      if state.waiting.isEmpty {
        state.busy = false
      } else {
        state.waiting.removeFirst().turn.signal()
      }
    }
  }
}
