import Dispatch
import JSON
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Log lines for stderr, written on a serial queue of their own so that a host that never reads
/// stderr cannot stall the server: when the queue is full, lines are dropped and counted, and the
/// count is written once stderr drains. No thread waits for stderr: a write takes what the host has
/// room for (`NonBlockingWriter`), and a Dispatch write source writes the rest once it has more.
///
/// At exit, the exiting thread writes what is left itself (`flush`): a line logged just before
/// `_exit` is never left waiting for a queue thread the kernel has not run yet.
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

  private let backlog = Mutex(LogBacklog())
  /// Writes to `fd`, one batch at a time, while the server runs (internal: tests hold it back).
  let queue = DispatchQueue(label: "inbox-rpc.log")
  /// stderr, opened non-blocking at the first write, not at start.
  private let opened = Mutex<NonBlockingWriter?>(nil)

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
    let schedule = backlog.withLock { $0.queue(line, capacity: capacity) }
    if schedule { queue.async { self.drain() } }
  }

  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  /// Writes every line logged so far on the calling thread (at exit), waiting at most `timeout`
  /// seconds for the host to make room on stderr; never blocks longer. The log queue is not waited
  /// for (unless it is in a write): its thread may not have been scheduled yet, and the process is
  /// about to end.
  public func flush(timeout: Double = 0.2) {
    guard fd >= 0 else { return }  // a silent logger queues nothing
    let deadline = DispatchTime.now() + timeout
    switch backlog.withLock({ $0.claimForExit() }) {
    case .nothing: return
    case .claimed: break
    case .afterQueue(let waiting):
      let handed = waiting.wait(timeout: deadline) == .success || backlog.withLock { $0.handedOver(waiting) }
      guard handed else { return }
    }
    let output = output()
    var rest: [UInt8] = []
    repeat {
      let bytes = backlog.withLock { $0.take() }
      if bytes.isEmpty { break }
      rest = write(bytes, to: output, waitingForRoomUntil: deadline)
      backlog.withLock { $0.put(back: rest) }
    } while rest.isEmpty
    // Left over (the host had no room in time): the queue writes it once the host takes more.
    if backlog.withLock({ $0.releaseFromExit() }) { queue.async { self.drain() } }
  }

  /// Writes every queued line, and a count of the lines dropped meanwhile, as far as the host has
  /// room; the rest waits, with no thread, for a write source to say there is more.
  private func drain() {
    dispatchPrecondition(condition: .onQueue(queue))
    guard fd >= 0, backlog.withLock({ $0.claimForQueue() }) else { return }
    let output = output()
    let rest = write(backlog.withLock { $0.take() }, to: output, waitingForRoomUntil: nil)
    let exiting = backlog.withLock { backlog in
      backlog.put(back: rest)
      return backlog.releaseFromQueue(full: !rest.isEmpty)
    }
    if let exiting {
      exiting.signal()
      return
    }
    guard !rest.isEmpty else { return }
    output.whenRoom(on: queue) { [self] in
      backlog.withLock { $0.waitsForRoom = false }
      drain()
    }
  }

  /// Writes `bytes` as far as the host takes them, waiting for room until `deadline` (at exit) or
  /// not at all (nil): what is left.
  private func write(_ bytes: [UInt8], to output: NonBlockingWriter, waitingForRoomUntil deadline: DispatchTime?)
    -> [UInt8]
  {
    var rest = bytes[...]
    while !rest.isEmpty {
      switch rest.withUnsafeBytes({ output.write($0) }) {
      case .wrote(let count): rest.removeFirst(count)
      // Best effort: a closed or broken stderr loses the lines, never the server.
      case .closed: rest = []
      case .full:
        guard let deadline, Self.waitForRoom(on: output.pollable, until: deadline) else { return Array(rest) }
      }
    }
    return []
  }

  /// The one wait at exit: until the host has room on `fd`, or `deadline`.
  private static func waitForRoom(on fd: Int32, until deadline: DispatchTime) -> Bool {
    let now = DispatchTime.now().uptimeNanoseconds
    guard deadline.uptimeNanoseconds > now else { return false }
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    let milliseconds = Int32(min((deadline.uptimeNanoseconds - now + 999_999) / 1_000_000, 60_000))
    return poll(&entry, 1, milliseconds) > 0
  }

  private func output() -> NonBlockingWriter {
    if let writer = opened.withLock({ $0 }) { return writer }
    let made = NonBlockingWriter(fd: fd)
    return opened.withLock { writer in
      if let writer { return writer }
      writer = made
      return made
    }
  }
}
