import Dispatch

/// What one try of a write came to: done (its result, or its failure), or busy: it could not
/// start, for a cause that passes (another process holds the store's write lock, another write of
/// this process holds the writer, the check of an unclean start runs), and did nothing. A busy
/// write is made again by whoever submitted it, when `wake` calls back, as its `Patience` allows;
/// once that has passed it answers `tooLong` (a `busy` failure, or what the face makes of it).
public enum WriteAttempt<T> {
  /// Calls `resume` once, when the cause may have passed: for the `attempt`th wait (from 0), and
  /// at the latest at `deadline`.
  public typealias Wake =
    @Sendable (_ attempt: Int, _ deadline: DispatchTime, _ resume: @escaping @Sendable () -> Void) -> Void

  case done(Result<T, any Error>)
  case busy(wake: Wake, tooLong: Result<T, any Error>)

  /// The same attempt with its outcome, and the one it has once its patience passed, transformed.
  public func mapOutcome<U>(_ transform: (Result<T, any Error>) -> Result<U, any Error>) -> WriteAttempt<U> {
    switch self {
    case .done(let result): .done(transform(result))
    case .busy(let wake, let tooLong): .busy(wake: wake, tooLong: transform(tooLong))
    }
  }

  /// The same attempt with its result transformed; a failure of `transform` is the result's.
  public func map<U>(_ transform: (T) throws -> U) -> WriteAttempt<U> {
    mapOutcome { $0.flatMap { value in Result { try transform(value) } } }
  }
}

extension WriteAttempt: Sendable where T: Sendable {}

/// The one patience of a busy write, whoever makes it again (the scheduler, a sync, an open): it
/// may wait `seconds` from its first busy try, each wait woken as the lock may be free. Used by one
/// try at a time (each started by the wake-up of the one before).
public final class Patience: @unchecked Sendable {
  /// How long a write may wait for another's lock, from its first busy try.
  public static let seconds = 5.0

  private var deadline: DispatchTime?
  private var waits = 0

  public init() {}

  /// The wait before the next try of a write that came back `busy(wake)`: nil once the patience
  /// has passed (the write answers its `tooLong`).
  public func nextWake<T>(after attempt: WriteAttempt<T>) -> (
    @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void
  )? {
    guard case .busy(let wake, _) = attempt else { return nil }
    let deadline = deadline ?? .now() + Self.seconds
    guard DispatchTime.now() < deadline else { return nil }
    self.deadline = deadline
    let wait = waits
    waits += 1
    return { resume in wake(wait, deadline, resume) }
  }

  /// Starts again, for the next write (a batch's next member, a sync's next step).
  public func reset() {
    deadline = nil
    waits = 0
  }
}

extension WriteAttempt where T: Sendable {
  /// Makes `attempt` until it is done, waiting as a callback (no thread waits) as `Patience` allows;
  /// `completion` gets its outcome (`tooLong` once the patience has passed). For the writes no
  /// scheduler runs: the store's opening, before there is one.
  public static func retrying(
    _ attempt: @escaping @Sendable () -> WriteAttempt<T>,
    completion: @escaping @Sendable (Result<T, any Error>) -> Void
  ) {
    let patience = Patience()
    @Sendable func next() {
      let outcome = attempt()
      switch outcome {
      case .done(let result):
        completion(result)
      case .busy(_, let tooLong):
        guard let wait = patience.nextWake(after: outcome) else { return completion(tooLong) }
        wait { DispatchQueue.global().async { next() } }
      }
    }
    next()
  }
}
