import Posix
import Synchronization

/// The server's only source of time, in unix seconds; tests may pin it (`test.clock`).
final class ServerClock: Sendable {
  private let pinned = Mutex<Int64?>(nil)

  var now: Int64 { pinned.withLock { $0 } ?? Clock.unixSeconds }

  func pin(_ seconds: Int64?) { pinned.withLock { $0 = seconds } }
}
