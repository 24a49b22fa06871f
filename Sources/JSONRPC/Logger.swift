import Dispatch
import JSON
import Posix
import Synchronization

/// Log lines for stderr, written on a serial queue of their own so that a host that never reads
/// stderr cannot stall the server: when the queue is full, lines are dropped and counted, and the
/// count is written once stderr drains.
public final class Logger: Sendable {
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

  private let state = Mutex<(pending: [String], dropped: Int)>(([], 0))
  /// Writes to `fd`, one batch at a time; only it ever blocks on stderr.
  private let queue = DispatchQueue(label: "inbox-rpc.log")
  /// Writes queued or running: at exit, a logger with none has nothing to flush, and waits for no
  /// thread (Dispatch would start one to run an empty turn of the queue).
  private let outstanding = Atomic<Int>(0)

  /// A logger writing to `fd` (2 in the server); `capacity` lines wait at most.
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
    // One record, one line: payload text inside it shows its control characters escaped.
    var line = "inbox-rpc \(candidate): \(message().escapingControlCharacters)"
    if line.utf8.count > Self.maxRecordBytes {
      line = String(decoding: line.utf8.prefix(Self.maxRecordBytes), as: UTF8.self) + "…[truncated]"
    }
    // The first line queued since the last write schedules the next write; later ones join it.
    let schedule = state.withLock { state -> Bool in
      guard state.pending.count < capacity else {
        state.dropped += 1
        return false
      }
      state.pending.append(line)
      return state.pending.count == 1
    }
    if schedule {
      outstanding.add(1, ordering: .sequentiallyConsistent)
      queue.async {
        self.drain()
        self.outstanding.subtract(1, ordering: .sequentiallyConsistent)
      }
    }
  }

  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  /// Waits up to `timeout` seconds for queued lines to be written (at exit); never blocks longer.
  public func flush(timeout: Double = 0.2) {
    guard fd >= 0 else { return }  // a silent logger queues nothing
    guard outstanding.load(ordering: .sequentiallyConsistent) > 0 else { return }
    let written = DispatchSemaphore(value: 0)
    queue.async { written.signal() }
    _ = written.wait(timeout: .now() + timeout)
  }

  /// Writes every queued line, and a count of the lines dropped meanwhile.
  private func drain() {
    let (batch, dropped) = state.withLock { state in
      defer { state = ([], 0) }
      return state
    }
    guard fd >= 0 else { return }
    var lines = batch
    if dropped > 0 {
      lines.append("inbox-rpc warn: \(dropped) log lines dropped (stderr is not being read fast enough)")
    }
    guard !lines.isEmpty else { return }
    var text = lines.joined(separator: "\n")
    text.append("\n")
    writeAll(Array(text.utf8))
  }

  /// Best effort: a closed or broken stderr loses the lines, never the server.
  private func writeAll(_ bytes: [UInt8]) {
    Files.writeAll(fd, bytes)
  }
}
