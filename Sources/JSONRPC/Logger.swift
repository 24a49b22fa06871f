import Dispatch
import JSON
import Posix
import Synchronization

/// Log lines for stderr, written on a serial queue of their own so that a host that never reads
/// stderr cannot stall the server: when the queue is full, lines are dropped and counted, and the
/// count is written once stderr drains. No thread waits for stderr: a write takes what the host has
/// room for (`NonBlockingWriter`), and a Dispatch write source writes the rest once it has more.
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
  /// Writes to `fd`, one batch at a time. What the host had no room for, and whether a write source
  /// waits for room, belong to it.
  private let queue = DispatchQueue(label: "inbox-rpc.log")
  private let stderr = Confined()
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
    queue.async { [self] in stderr.whenWritten { written.signal() } }
    _ = written.wait(timeout: .now() + timeout)
  }

  /// Writes every queued line, and a count of the lines dropped meanwhile, as far as the host has
  /// room; the rest waits, with no thread, for a write source to say there is more.
  private func drain() {
    dispatchPrecondition(condition: .onQueue(queue))
    guard fd >= 0, !stderr.waitsForRoom else { return }
    let (batch, dropped) = state.withLock { state in
      defer { state = ([], 0) }
      return state
    }
    var lines = batch
    if dropped > 0 {
      lines.append("inbox-rpc warn: \(dropped) log lines dropped (stderr is not being read fast enough)")
    }
    if !lines.isEmpty { stderr.unwritten += Array((lines.joined(separator: "\n") + "\n").utf8) }
    let output = stderr.output(fd)
    while !stderr.unwritten.isEmpty {
      switch stderr.unwritten.withUnsafeBytes({ output.write($0) }) {
      case .wrote(let count): stderr.unwritten.removeFirst(count)
      case .full: return waitForRoom(output)
      // Best effort: a closed or broken stderr loses the lines, never the server.
      case .closed: stderr.unwritten = []
      }
    }
    stderr.written()
  }

  /// The host has no room on stderr: a write source drains again once it has.
  private func waitForRoom(_ output: NonBlockingWriter) {
    stderr.waitsForRoom = true
    outstanding.add(1, ordering: .sequentiallyConsistent)
    output.whenRoom(on: queue) { [self] in
      stderr.waitsForRoom = false
      drain()
      outstanding.subtract(1, ordering: .sequentiallyConsistent)
    }
  }
}

/// The logger's writing state, used on its queue alone.
private final class Confined: @unchecked Sendable {
  // Unchecked: touched only on `Logger.queue`.
  var unwritten: [UInt8] = []
  var waitsForRoom = false
  private var writer: NonBlockingWriter?
  /// Told once everything queued has been written (a flush at exit).
  private var waiting: [@Sendable () -> Void] = []

  /// Calls `done` now if nothing waits to be written, else once it has been.
  func whenWritten(_ done: @escaping @Sendable () -> Void) {
    if unwritten.isEmpty, !waitsForRoom { done() } else { waiting.append(done) }
  }

  /// Everything queued has been written.
  func written() {
    let told = waiting
    waiting = []
    for done in told { done() }
  }

  /// stderr, opened non-blocking at the first write, not at start.
  func output(_ fd: Int32) -> NonBlockingWriter {
    if let writer { return writer }
    let opened = NonBlockingWriter(fd: fd)
    writer = opened
    return opened
  }
}
