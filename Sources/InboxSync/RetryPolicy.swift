/// When a change the backend did not confirm is tried again: exponential backoff with jitter.
///
/// After the n-th failure (n = 1, 2, ...) the wait is `min(cap, base * 2^(n-1))` seconds, shortened by a
/// random factor in [1 - jitter, 1] so that many clients that failed together do not retry together.
/// Defaults: 5 s, doubling up to one hour, jitter 0.5. A change is never dropped for failing: it waits
/// in the outbox until the backend confirms it.
public struct RetryPolicy: Sendable, Hashable {
  public var base: Double
  public var cap: Double
  public var jitter: Double

  public init(base: Double = 5, cap: Double = 3600, jitter: Double = 0.5) {
    self.base = base
    self.cap = cap
    self.jitter = min(max(jitter, 0), 1)
  }

  /// Seconds to wait after the `failures`-th failure in a row; `random` is uniform in [0, 1).
  public func delay(afterFailures failures: Int, random: Double) -> Double {
    let exponent = Double(min(max(failures - 1, 0), 62))
    let full = min(cap, base * pow2(exponent))
    return full * (1 - jitter * min(max(random, 0), 1))
  }

  private func pow2(_ exponent: Double) -> Double {
    var value = 1.0
    var remaining = Int(exponent)
    while remaining > 0 && value < cap {
      value *= 2
      remaining -= 1
    }
    return value
  }
}
