import Synchronization

/// Reply bytes held in memory across the connection, waiting to be written.
///
/// A batch's replies go out as one frame, so each member's encoded reply waits until the last member
/// has run; whatever a host puts in one line, those bytes never pass `limit` in all. A reply that
/// would pass it is refused its place (the batch carries a small -32600 for it instead).
final class ReplyBudget: Sendable {
  let limit: Int
  private let held = Mutex(0)

  init(limit: Int) { self.limit = limit }

  /// Takes `bytes` of the budget; false, taking nothing, when they do not fit.
  func reserve(_ bytes: Int) -> Bool {
    held.withLock { held in
      guard bytes <= limit - held else { return false }
      held += bytes
      return true
    }
  }

  func release(_ bytes: Int) {
    held.withLock { $0 -= bytes }
  }
}
