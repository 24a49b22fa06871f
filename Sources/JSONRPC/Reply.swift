import JSON
import Synchronization

/// The answer a deferred handler owes (`Method.DeferredHandler`): called once, from any thread,
/// with the result or the error; later calls are ignored, so a cancel and the work it cancels can
/// race to answer and only the first counts.
public final class Reply: Sendable {
  private let complete: Mutex<(@Sendable (Result<JSONValue, any Error>) -> Void)?>

  public init(_ complete: @escaping @Sendable (Result<JSONValue, any Error>) -> Void) {
    self.complete = Mutex(complete)
  }

  public func callAsFunction(_ outcome: Result<JSONValue, any Error>) {
    let once = complete.withLock { complete in
      defer { complete = nil }
      return complete
    }
    once?(outcome)
  }

  public func succeed(_ result: JSONValue) { self(.success(result)) }
  public func fail(_ error: any Error) { self(.failure(error)) }

  /// Answers with what `body` returns or throws.
  public func answer(_ body: () throws -> JSONValue) {
    do { succeed(try body()) } catch { fail(error) }
  }
}
