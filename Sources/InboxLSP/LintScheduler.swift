import Dispatch
import Synchronization

/// Runs each document's lint a debounce after its last edit, one run at a time on a serial queue:
/// an edit that arrives before the run starts moves it later (the earlier timer, when it fires,
/// finds a newer ticket and does nothing), and one that arrives during the run makes the server
/// drop that run's result (its version is stale) and run again. No thread waits for a due time:
/// each is a timer Dispatch fires.
final class LintScheduler: Sendable {
  private struct State {
    /// The latest ticket of each document due; a timer whose ticket is not the latest is stale.
    var tickets: [String: UInt64] = [:]
    var issued: UInt64 = 0
    var stopped = false
  }

  private let queue = DispatchQueue(label: "inbox-rpc.lsp-lint")
  private let state = Mutex(State())
  private let run: @Sendable (String) -> Void

  init(run: @escaping @Sendable (String) -> Void) { self.run = run }

  func schedule(_ uri: String, after milliseconds: Int) {
    let ticket = state.withLock { state -> UInt64? in
      guard !state.stopped else { return nil }
      state.issued += 1
      state.tickets[uri] = state.issued
      return state.issued
    }
    guard let ticket else { return }
    queue.asyncAfter(deadline: .now() + .milliseconds(max(milliseconds, 0))) { [self] in
      let due = state.withLock { state -> Bool in
        guard !state.stopped, state.tickets[uri] == ticket else { return false }
        state.tickets[uri] = nil
        return true
      }
      if due { run(uri) }
    }
  }

  func forget(_ uri: String) { state.withLock { _ = $0.tickets.removeValue(forKey: uri) } }

  func stop() {
    state.withLock { state in
      state.stopped = true
      state.tickets = [:]
    }
  }
}
