import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// A time a transfer step must be over by, with the allowance it was given (for the message), and
/// the waits that respect it: every wait is cut into slices of at most `slice` milliseconds, and the
/// cancellation check runs between them, so a cancelled transfer stops within a slice.
struct TransferDeadline {
  /// Monotonic nanoseconds.
  let instant: UInt64
  /// The allowance in seconds, as given.
  let seconds: Double
  let isCancelled: @Sendable () -> Bool

  /// The longest a single wait lasts before `isCancelled` is asked again, in milliseconds.
  static let slice = 20

  init(seconds: Double, from start: UInt64, isCancelled: @escaping @Sendable () -> Bool) {
    self.seconds = seconds
    self.isCancelled = isCancelled
    instant = start + UInt64(max(0, seconds) * 1_000_000_000)
  }

  /// `.cancelled` once cancelled; a time-out once the deadline has passed (naming `activity`).
  func check(_ activity: @autoclosure () -> String) throws(HTTPTransfer.Failure) {
    if isCancelled() { throw .cancelled }
    if Clock.monotonicNanoseconds >= instant { throw timedOut(activity()) }
  }

  /// Milliseconds for the next wait: at most one slice, at least 1 while any time is left.
  var nextSlice: Int32 {
    let now = Clock.monotonicNanoseconds
    guard instant > now else { return 0 }
    return Int32(min(UInt64(Self.slice), (instant - now + 999_999) / 1_000_000))
  }

  /// "timed out after 0.5 s waiting for the reply".
  func timedOut(_ activity: String) -> HTTPTransfer.Failure {
    let shown = seconds == seconds.rounded() && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
    return .transport(reason: "timed out after \(shown) s \(activity)")
  }

  /// Waits until `fd` is ready for `events` (POLLIN, POLLOUT), the deadline passes, or the transfer is
  /// cancelled. Returns when ready (or in error: the next read or write tells which error).
  func wait(for fd: Int32, _ events: Int32, _ activity: @autoclosure () -> String) throws(HTTPTransfer.Failure) {
    while true {
      try check(activity())
      var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
      let ready = poll(&entry, 1, max(1, nextSlice))
      if ready > 0 { return }
      if ready < 0 && errno != EINTR {
        throw .transport(reason: "waiting on the connection failed: \(String(cString: strerror(errno)))")
      }
    }
  }
}
