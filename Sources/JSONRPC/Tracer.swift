import Dispatch
import JSON
import Posix
import Synchronization

/// Records every frame in and out as one JSON line `{"t", "dir", "frame"}` (see docs/tracing.md),
/// off the hot path: the reader and the writers only queue the bytes they already hold; a serial
/// queue of the tracer's own redacts, encodes and writes them. When it falls behind (a slow disk, a
/// FIFO nobody reads), frames past `maxQueuedBytes` are dropped and counted, never waited for: a
/// `{"t", "dropped": N}` line marks the gap once the writer catches up.
public final class Tracer: Sendable {
  public enum Direction: String, Sendable {
    case incoming = "in"
    case outgoing = "out"
  }

  private struct Entry {
    var milliseconds: Int64
    var direction: Direction
    var bytes: [UInt8]
    /// Known to be JSON (parsed by the reader, or written by the server).
    var isJSON: Bool
    /// Frames dropped just before this one: the gap's note goes where the gap was.
    var droppedBefore = 0
  }

  private struct State {
    var pending: [Entry] = []
    var pendingBytes = 0
    var dropped = 0
    var droppedInAll = 0
    var broken = false
    /// A drain is queued or running: frames queued meanwhile join its next pass, without another wake-up.
    var scheduled = false
  }

  /// Bytes an entry costs beyond its frame, so a flood of tiny frames is bounded too.
  private static let entryOverhead = 64
  /// Frames deeper than this are kept as text.
  private static let readOptions = JSONReadOptions(maxDepth: 2000)

  private let file: TraceFile
  private let redactor: Mutex<TraceRedactor>
  private let maxQueuedBytes: Int
  private let logger: Logger
  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "inbox-rpc.trace")

  /// At most `min(file.maxBytes, 8 MiB)` of frames wait in memory (or one larger frame): never more
  /// than a file could keep.
  public init(file: TraceFile, redactor: TraceRedactor, logger: Logger) {
    self.file = file
    self.redactor = Mutex(redactor)
    self.maxQueuedBytes = min(file.maxBytes, 8 * 1024 * 1024)
    self.logger = logger
  }

  /// Queues one frame as it was read or written (a trailing newline is ignored); `isJSON` when it
  /// is known to be JSON. Never blocks on the file.
  public func record(_ direction: Direction, _ bytes: [UInt8], isJSON: Bool = false) {
    var entry = Entry(milliseconds: Clock.unixMilliseconds, direction: direction, bytes: bytes, isJSON: isJSON)
    let cost = bytes.count + Self.entryOverhead
    let (schedule, firstDrop) = state.withLock { state -> (Bool, Bool) in
      guard !state.broken else { return (false, false) }
      // A frame larger than the bound still goes when the queue is empty: the server holds it anyway.
      guard state.pendingBytes == 0 || state.pendingBytes + cost <= maxQueuedBytes else {
        state.dropped += 1
        state.droppedInAll += 1
        return (false, state.droppedInAll == 1)
      }
      entry.droppedBefore = state.dropped
      state.dropped = 0
      state.pending.append(entry)
      state.pendingBytes += cost
      defer { state.scheduled = true }
      return (!state.scheduled, false)
    }
    if firstDrop { logger.warn("trace: the trace file is not keeping up; frames are dropped and counted in it") }
    if schedule { queue.async { self.drain() } }
  }

  /// Waits for queued frames to be written (at exit); returns the frames dropped over the whole
  /// run. A regular file's writes always end, and at most `maxQueuedBytes` wait, so its trace is
  /// written whole however loaded the machine (a second was once too short to redact a large
  /// reply); a FIFO or a terminal nobody reads is waited for `timeout` seconds at most.
  @discardableResult
  public func finish(timeout: Double = 1) -> Int {
    let written = DispatchSemaphore(value: 0)
    // One more pass writes the count of frames dropped since the last one.
    queue.async {
      self.drain()
      written.signal()
    }
    if file.isRegular {
      written.wait()
    } else if written.wait(timeout: .now() + timeout) == .timedOut {
      logger.warn("trace: \(file.path) is not being written; the frames still queued are lost")
    }
    return state.withLock { $0.droppedInAll }
  }

  /// Writes what is queued, pass after pass, until a pass finds nothing.
  private func drain() {
    while let (batch, dropped) = take() {
      guard write(batch, dropped: dropped) else {
        state.withLock { $0.broken = true }
        logger.error("trace: cannot write \(file.path); tracing stops")
        return
      }
    }
  }

  /// The frames queued and the count dropped after them, or nil (and no drain scheduled) when none.
  private func take() -> ([Entry], Int)? {
    state.withLock { state in
      guard !state.pending.isEmpty || state.dropped > 0 else {
        state.scheduled = false
        return nil
      }
      defer {
        state.pending = []
        state.pendingBytes = 0
        state.dropped = 0
      }
      return (state.pending, state.dropped)
    }
  }

  private func write(_ batch: [Entry], dropped: Int) -> Bool {
    var text: [UInt8] = []
    text.reserveCapacity(batch.reduce(0) { $0 + $1.bytes.count + Self.entryOverhead })
    var lineEnds: [Int] = []
    lineEnds.reserveCapacity(batch.count + 1)
    for entry in batch {
      if entry.droppedBefore > 0 {
        text += Self.gap(entry.droppedBefore)
        lineEnds.append(text.count)
      }
      append(entry, to: &text)
      lineEnds.append(text.count)
    }
    if dropped > 0 {
      text += Self.gap(dropped)
      lineEnds.append(text.count)
    }
    return file.write(text, lineEnds: lineEnds)
  }

  /// `{"t", "dropped": N}`: N frames are missing here.
  private static func gap(_ count: Int) -> [UInt8] {
    let note: JSONValue = ["t": .int(Clock.unixMilliseconds), "dropped": .int(Int64(count))]
    return note.serialized(terminatedBy: 0x0A)
  }

  /// Appends the record of one frame, with its newline.
  private func append(_ entry: Entry, to text: inout [UInt8]) {
    var body = entry.bytes[...]
    while let last = body.last, last == 0x0A || last == 0x0D { body = body.dropLast() }
    // Most frames hold no secret: one scan shows it, and they are kept byte for byte.
    if entry.isJSON, body.count <= file.maxBytes - 64, redactor.withLock({ $0.passesUnchanged(body) }) {
      text += Self.recordStart
      text += String(entry.milliseconds).utf8
      text += entry.direction == .incoming ? Self.incoming : Self.outgoing
      text += body
      text += Self.recordEnd
      return
    }
    var fields: JSONObject = ["t": .int(entry.milliseconds), "dir": .string(entry.direction.rawValue)]
    if let value = try? JSONValue.parse(bytes: body, options: Self.readOptions) {
      fields["frame"] = redactor.withLock { $0.redact(value) }
    } else {
      // Its secrets cannot be found without parsing it: a digest stands for it, never its bytes.
      fields["unparsed"] = redactor.withLock { $0.digest(body) }
    }
    var record = JSONValue.object(fields)
    var encoded = record.serialized(terminatedBy: 0x0A)
    if encoded.count > file.maxBytes {
      record = [
        "t": .int(entry.milliseconds), "dir": .string(entry.direction.rawValue),
        "frame": .string("[a frame of \(body.count) bytes, larger than the trace's size cap]"),
      ]
      encoded = record.serialized(terminatedBy: 0x0A)
    }
    text += encoded
  }

  private static let recordStart = Array(#"{"t":"#.utf8)
  private static let incoming = Array(#","dir":"in","frame":"#.utf8)
  private static let outgoing = Array(#","dir":"out","frame":"#.utf8)
  private static let recordEnd: [UInt8] = [0x7D, 0x0A]
}
