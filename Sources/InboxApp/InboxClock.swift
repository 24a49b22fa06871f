import InboxCore
import Posix
import Synchronization

/// The inbox's only source of time, in unix seconds; tests may pin it.
public final class InboxClock: Sendable {
  private let pinned = Mutex<Int64?>(nil)

  public init(pinned seconds: Int64? = nil) { pin(seconds) }

  /// Held inside the years RFC 3339 can write, so every date computed from it can be written too.
  public var now: Int64 { RFC3339.clamped(pinned.withLock { $0 } ?? Clock.unixSeconds) }

  /// Pins the clock at `seconds`; nil lets it run again.
  public func pin(_ seconds: Int64?) { pinned.withLock { $0 = seconds } }
}
