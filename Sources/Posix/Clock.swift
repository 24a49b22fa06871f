#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Time without Foundation.
public enum Clock {
  /// Seconds since the Unix epoch.
  public static var unixSeconds: Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec)
  }

  /// Milliseconds since the Unix epoch (trace records).
  public static var unixMilliseconds: Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// A monotonic clock in nanoseconds, for deadlines and measuring.
  public static var monotonicNanoseconds: UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
