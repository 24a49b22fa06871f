import Posix

/// Log lines for stderr, written by a thread of their own so that a host that never reads stderr
/// cannot stall the server: when the queue is full, lines are dropped and counted, and the count
/// is written once stderr drains.
public final class Logger: @unchecked Sendable {
  /// Severity, most severe first.
  public enum Level: Int, Comparable, Sendable, CaseIterable {
    case error, warn, info, debug

    public init?(name: String) {
      guard let level = Level.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
      self = level
    }

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public let level: Level
  private let fd: Int32
  private let capacity: Int
  /// Longest record written; longer ones are cut so one bad payload cannot flood stderr.
  private static let maxRecordBytes = 10_000

  // Guarded by `condition`: `pending`, `dropped`, `writing`, `started`.
  private let condition = ConditionLock()
  private var pending: [String] = []
  private var dropped = 0
  private var writing = false
  private var started = false

  /// A logger writing to `fd` (2 in the server); `capacity` lines wait at most. Its thread starts
  /// with the first line, so a quiet server never pays for it.
  public init(level: Level, fd: Int32 = 2, capacity: Int = 4096) {
    self.level = level
    self.fd = fd
    self.capacity = capacity
  }

  /// A logger that writes nothing (tests).
  public static func silent() -> Logger { Logger(level: .error, fd: -1, capacity: 0) }

  public func isEnabled(_ candidate: Level) -> Bool { candidate <= level && fd >= 0 }

  public func log(_ candidate: Level, _ message: @autoclosure () -> String) {
    guard isEnabled(candidate) else { return }
    var line = "inbox-rpc \(candidate): \(message())"
    if line.utf8.count > Self.maxRecordBytes {
      line = String(decoding: line.utf8.prefix(Self.maxRecordBytes), as: UTF8.self) + "…[truncated]"
    }
    condition.lock()
    if pending.count >= capacity {
      dropped += 1
    } else {
      pending.append(line)
      condition.signal()
    }
    if !started {
      started = true
      // The thread holds the logger for the life of the process, as the server does.
      Threads.spawn { self.drain() }
    }
    condition.unlock()
  }

  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  /// Waits up to `timeout` seconds for queued lines to be written (at exit); never blocks longer.
  public func flush(timeout: Double = 0.2) {
    let deadline = Clock.monotonicNanoseconds + UInt64(timeout * 1e9)
    condition.lock()
    while started && (!pending.isEmpty || writing) {
      if !condition.wait(untilMonotonic: deadline) { break }
    }
    condition.unlock()
  }

  private func drain() {
    guard fd >= 0 else { return }
    while true {
      condition.lock()
      while pending.isEmpty && dropped == 0 { condition.wait() }
      var batch = pending
      pending.removeAll(keepingCapacity: true)
      if dropped > 0 {
        batch.append("inbox-rpc warn: \(dropped) log lines dropped (stderr is not being read fast enough)")
        dropped = 0
      }
      writing = true
      condition.unlock()

      var text = batch.joined(separator: "\n")
      text.append("\n")
      writeAll(Array(text.utf8))

      condition.lock()
      writing = false
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Best effort: a closed or broken stderr loses the lines, never the server.
  private func writeAll(_ bytes: [UInt8]) {
    Files.writeAll(fd, bytes)
  }
}
