import Dispatch
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

  /// Starts `body` with a reply and waits on the calling thread for its outcome (a deferred method
  /// placed off the reader, another face calling in process).
  public static func waiting(for body: (Reply) -> Void) throws -> JSONValue {
    let answered = ReplyBox()
    body(Reply { answered.put($0) })
    return try answered.take().get()
  }

  /// Answers with what `body` returns or throws.
  public func answer(_ body: () throws -> JSONValue) {
    do { succeed(try body()) } catch { fail(error) }
  }
}

/// One outcome handed from the thread that answers to the one that waits for it.
final class ReplyBox: Sendable {
  private let outcome = Mutex<Result<JSONValue, any Error>?>(nil)
  private let ready = DispatchSemaphore(value: 0)

  func put(_ value: Result<JSONValue, any Error>) {
    outcome.withLock { $0 = value }
    ready.signal()
  }

  func take() -> Result<JSONValue, any Error> {
    ready.wait()
    return outcome.withLock { $0! }
  }
}
