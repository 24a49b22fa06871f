import JSON
import Synchronization

/// Requests running off the reader, by id, with the token a cancel sets.
final class InFlight: Sendable {
  private struct Entry {
    var token: CancellationToken
    /// A single request (not a batch member): a cancel that finds it not started answers it alone.
    var answersAlone: Bool
  }

  private let entries = Mutex<[JSONValue: Entry]>([:])

  func track(_ id: JSONValue, _ token: CancellationToken, answersAlone: Bool) {
    entries.withLock { $0[id] = Entry(token: token, answersAlone: answersAlone) }
  }

  func untrack(_ id: JSONValue) {
    _ = entries.withLock { $0.removeValue(forKey: id) }
  }

  /// Cancels the request with this id; an id not in flight is ignored. A single request still
  /// waiting for a worker is answered -32800 at once through `writer`; one that has started
  /// answers when it notices. Without a writer the cancel takes the reply for itself, so the
  /// request is never answered (MCP's rule). Returns whether one was found.
  @discardableResult
  func cancel(_ id: JSONValue, writer: OutputWriter?) -> Bool {
    guard let entry = entries.withLock({ $0[id] }) else { return false }
    guard let writer else {
      // Claimed before the cancel wakes anyone, so no handler woken by it answers first.
      _ = entry.token.claimReply()
      entry.token.cancel()
      return true
    }
    entry.token.cancel()
    if entry.answersAlone, !entry.token.hasStarted, entry.token.claimReply() {
      writer.send(Response.error(id: id, .cancelled))
    }
    return true
  }

  /// Cancels every request still in flight; returns how many.
  func cancelAll() -> Int {
    let tokens = entries.withLock { $0.values.map(\.token) }
    for token in tokens { token.cancel() }
    return tokens.count
  }
}
