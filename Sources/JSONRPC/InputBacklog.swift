import Posix

/// Frames handed to worker threads keep their parsed input until they finish. The reader takes a
/// frame's size from here before handing it over and waits while the frames in flight already hold
/// `limit` bytes, so a host that sends faster than the server works fills the pipe, not the memory.
/// One frame is always let through, however large, so a frame the reader accepted never deadlocks.
final class InputBacklog: @unchecked Sendable {
  let limit: Int
  // Guarded by `condition`.
  private let condition = ConditionLock()
  private var held = 0

  init(limit: Int) { self.limit = limit }

  /// Waits until `bytes` fit (or nothing is in flight), then takes them.
  func acquire(_ bytes: Int) {
    condition.withLock {
      while held > 0, held + bytes > limit { condition.wait() }
      held += bytes
    }
  }

  func release(_ bytes: Int) {
    condition.withLock {
      held -= bytes
      condition.broadcast()
    }
  }
}
