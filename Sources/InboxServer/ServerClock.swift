import InboxCore
import Posix
import Synchronization

/// The server's only source of time, in unix seconds; tests may pin it (`test.clock`).
final class ServerClock: Sendable {
  private let pinned = Mutex<Int64?>(nil)

  /// Held inside the years RFC 3339 can write, so every date computed from it can be written too.
  var now: Int64 { RFC3339.clamped(pinned.withLock { $0 } ?? Clock.unixSeconds) }

  func pin(_ seconds: Int64?) { pinned.withLock { $0 = seconds } }
}
