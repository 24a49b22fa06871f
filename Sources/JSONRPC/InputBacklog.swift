import Dispatch
import Synchronization

/// Frames handed to worker threads keep their parsed input until they finish. The reader takes a
/// frame's size from here before handing it over and waits while the frames in flight already hold
/// `limit` bytes, so a host that sends faster than the server works fills the pipe, not the memory.
/// One frame is always let through, however large, so a frame the reader accepted never deadlocks.
final class InputBacklog: Sendable {
  let limit: Int
  private let state = Mutex<(held: Int, waiter: DispatchSemaphore?)>((0, nil))

  init(limit: Int) { self.limit = limit }

  /// Waits until `bytes` fit (or nothing is in flight), then takes them. Only the reader calls it,
  /// so at most one caller waits; a release wakes it to try again.
  func acquire(_ bytes: Int) {
    while true {
      let wait = state.withLock { state -> DispatchSemaphore? in
        guard state.held > 0, state.held + bytes > limit else {
          state.held += bytes
          return nil
        }
        let semaphore = DispatchSemaphore(value: 0)
        state.waiter = semaphore
        return semaphore
      }
      guard let wait else { return }
      wait.wait()
    }
  }

  func release(_ bytes: Int) {
    let waiter = state.withLock { state -> DispatchSemaphore? in
      state.held -= bytes
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.signal()
  }
}
