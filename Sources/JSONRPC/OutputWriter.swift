import Dispatch
import JSON
import Posix
import Synchronization

/// Where frames go: the writer itself, or frames held to go out together (`HeldFrames`).
public protocol FrameSink: Sendable {
  func send(_ message: JSONValue)
  func send(line: [UInt8])
}

/// The one writer of protocol frames: each frame goes out whole and in the order sent, and no
/// thread that sends one waits for the host. The sender that finds the output idle writes its frame
/// itself, at once (nothing is buffered past its request while the host keeps up); frames sent
/// while the host has no room wait in order, and a Dispatch write source writes them when it has,
/// holding no thread meanwhile. The lock guards the queue, never a write. A host that takes
/// nothing for the patience (`limitPatience`) is given up on; the reader stops reading while more
/// than `backlogLimit` bytes wait for it (`hasRoom`, `ReaderGate`), so a host that stops reading stops the
/// server's work too, not just its output.
public final class OutputWriter: FrameSink {
  /// Why the writer stopped writing.
  public enum Gone: Sendable, Equatable {
    /// The host closed its end (EPIPE, or the descriptor is broken).
    case closed
    /// The host took nothing for the patience's length.
    case stalled
  }

  private struct State {
    var framing = Framing.ndjson
    var closed = false
    /// A thread or the write source is writing: frames sent meanwhile go to `queued`.
    var writing = false
    /// Frames sent and not yet handed to the host, in order.
    var queued: [UInt8] = []
    /// Seconds a host may take nothing before it is given up on; nil: for ever.
    var patience: Double?
    /// Counts the host's progress, so a stall check knows whether anything was taken since.
    var progress = 0
    /// The write source waits for room (no thread writes meanwhile).
    var waitsForRoom = false
    /// Called once the queue is below the limit (the reader, stopped: `hasRoom`).
    var roomWaiter: (@Sendable () -> Void)?
  }

  /// Bytes waiting for the host from which the reader stops reading.
  static let backlogLimit = 1 << 20

  private let output: NonBlockingWriter
  private let state = Mutex(State())
  /// Where the write source and the stall checks run, one at a time.
  private let events = DispatchQueue(label: "inbox-rpc.output")
  /// Entered while frames are being written: `flush` waits for it.
  private let unwritten = DispatchGroup()
  /// Called once, when the host has closed its end (`.closed`) or took nothing for the patience
  /// (`.stalled`).
  private let onGone: @Sendable (Gone) -> Void
  /// Gets every frame's body as it goes out (`--trace`).
  private let tracer: Tracer?

  public init(fd: Int32, tracer: Tracer? = nil, onGone: @escaping @Sendable (Gone) -> Void = { _ in }) {
    output = NonBlockingWriter(fd: fd)
    self.tracer = tracer
    self.onGone = onGone
  }

  /// From now on a host that takes no output for `seconds` is gone: frames still to write are
  /// dropped and `onGone(.stalled)` is called. Until then the frames wait for the host for ever.
  public func limitPatience(seconds: Double) {
    let waiting = state.withLock { state -> Int? in
      state.patience = seconds
      return state.waitsForRoom ? state.progress : nil
    }
    if let waiting { checkStall(after: seconds, progress: waiting) }
  }

  /// Sets the framing replies use: the one the host's input was read in.
  public func use(_ framing: Framing) {
    state.withLock { $0.framing = framing }
  }

  /// Encodes and writes one message as one frame. Encoding happens outside the lock.
  public func send(_ message: JSONValue) { emit(frame(message)) }

  /// Writes one JSON text encoded with its newline already after it (made so, it is never copied
  /// again to add one).
  public func send(line: [UInt8]) { emit(frame(line: line)) }

  /// Writes one already encoded JSON text as one frame (a batch's array, built member by member).
  public func send(encoded body: [UInt8]) { emit(frame(encoded: body)) }

  /// The frames of a message, a line (JSON with its newline) and a JSON text; each is traced.
  func frame(_ message: JSONValue) -> [UInt8] { frame(line: message.serialized(terminatedBy: 0x0A)) }

  func frame(line: [UInt8]) -> [UInt8] {
    tracer?.record(.outgoing, line, isJSON: true)
    switch currentFraming {
    case .ndjson: return line
    case .lsp: return withHeader(Array(line.dropLast()))
    }
  }

  func frame(encoded body: [UInt8]) -> [UInt8] {
    tracer?.record(.outgoing, body, isJSON: true)
    switch currentFraming {
    case .ndjson: return body + [0x0A]
    case .lsp: return withHeader(body)
    }
  }

  /// Content-Length counts bytes of the UTF-8 body, written first and exactly as LSP clients parse it.
  private func withHeader(_ body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }

  /// Runs `body` with frames held back: what it sends through the `HeldFrames` it is given goes
  /// out in one `write` when it returns. A request answered on the reader sends its notifications
  /// (which announce what it committed) and its reply that way, so a host wakes once, not per
  /// frame; frames sent to the writer itself meanwhile (a background sync's progress) go at once.
  public func coalescing<T>(_ body: (HeldFrames) -> T) -> T {
    let held = HeldFrames(writer: self)
    let result = body(held)
    emit(held.release())
    return result
  }

  private var currentFraming: Framing { state.withLock { $0.framing } }

  /// Sends one whole frame, unless the host has gone: written now when the output is idle, queued
  /// behind the frames before it otherwise.
  func emit(_ frame: [UInt8]) {
    let writesNow = state.withLock { state -> Bool in
      guard !state.closed, !frame.isEmpty else { return false }
      guard !state.writing else {
        state.queued += frame
        return false
      }
      state.writing = true
      return true
    }
    guard writesNow else { return }
    unwritten.enter()
    write(frame)
  }

  /// Writes `bytes`, then whatever was queued meanwhile, until the queue is empty, the host has no
  /// room (the write source then goes on), or the host has gone. Called by whoever set `writing`.
  private func write(_ first: [UInt8]) {
    var bytes = first
    var offset = 0
    var took = false
    while true {
      while offset < bytes.count {
        let attempt = bytes.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        switch attempt {
        case .wrote(let count): (offset, took) = (offset + count, true)
        case .full: return waitForRoom(Array(bytes[offset...]), took: took)
        case .closed: return stop(.closed)
        }
      }
      let (next, reader) = state.withLock { state -> ([UInt8]?, (@Sendable () -> Void)?) in
        state.progress &+= 1
        let reader = state.roomWaiter
        state.roomWaiter = nil
        guard !state.queued.isEmpty else {
          state.writing = false
          return (nil, reader)
        }
        defer { state.queued = [] }
        return (state.queued, reader)
      }
      // Everything queued is taken: the reader, if it stopped, reads again.
      reader?()
      guard let next else { return unwritten.leave() }
      (bytes, offset) = (next, 0)
    }
  }

  /// The host has no room: `rest` goes back at the head of the queue and a write source writes it
  /// once the host has room. `took`: the host took some of it first.
  private func waitForRoom(_ rest: [UInt8], took: Bool) {
    let (patience, progress) = state.withLock { state -> (Double?, Int) in
      if took { state.progress &+= 1 }
      state.queued = rest + state.queued
      state.waitsForRoom = true
      return (state.patience, state.progress)
    }
    output.whenRoom(on: events) { [self] in
      let queued = state.withLock { state -> [UInt8]? in
        state.waitsForRoom = false
        guard !state.closed else { return nil }
        defer { state.queued = [] }
        return state.queued
      }
      if let queued { write(queued) }
    }
    if let patience { checkStall(after: patience, progress: progress) }
  }

  /// Gives the host up after `seconds` unless it took something since `progress` was counted.
  private func checkStall(after seconds: Double, progress: Int) {
    events.asyncAfter(deadline: .now() + seconds) { [self] in
      let stalled = state.withLock { $0.waitsForRoom && $0.progress == progress && !$0.closed }
      if stalled { stop(.stalled) }
    }
  }

  /// The host is gone: what is queued is dropped, and `onGone` told once.
  private func stop(_ why: Gone) {
    let (first, wasWriting, reader) = state.withLock { state -> (Bool, Bool, (@Sendable () -> Void)?) in
      defer { (state.closed, state.queued, state.writing, state.roomWaiter) = (true, [], false, nil) }
      return (!state.closed, state.writing, state.roomWaiter)
    }
    // Told before a flush waiting for the frames returns: what leaves on the host's going does so
    // first.
    if first { onGone(why) }
    reader?()
    if wasWriting { unwritten.leave() }
  }

  /// True when fewer than `backlogLimit` bytes wait for the host, or it has gone; false otherwise,
  /// and `resume` is called once there is room. Only the reader asks, between frames
  /// (`ReaderGate`): a host that stops reading stops the reading too.
  public func hasRoom(orWhenRoom resume: @escaping @Sendable () -> Void) -> Bool {
    state.withLock { state in
      guard !state.closed, state.queued.count >= Self.backlogLimit else { return true }
      state.roomWaiter = resume
      return false
    }
  }

  /// Waits until every frame sent has been handed to the host, or the host has gone (at the end of
  /// the session: with a patience set, a host that stopped reading ends the wait by it).
  public func flush() { unwritten.wait() }
}

/// Frames held to go out together in one `write` (`OutputWriter.coalescing`); once released, a
/// frame sent through it is written at once.
public final class HeldFrames: FrameSink {
  private let writer: OutputWriter
  private let held = Mutex<[UInt8]?>([])

  init(writer: OutputWriter) { self.writer = writer }

  public func send(_ message: JSONValue) { hold(writer.frame(message)) }
  public func send(line: [UInt8]) { hold(writer.frame(line: line)) }

  private func hold(_ frame: [UInt8]) {
    let kept = held.withLock { held -> Bool in
      guard let bytes = held else { return false }
      // The usual request holds one frame, its reply: kept as it is, not copied.
      held = bytes.isEmpty ? frame : bytes + frame
      return true
    }
    if !kept { writer.emit(frame) }
  }

  /// The frames held; later ones are written at once.
  func release() -> [UInt8] {
    held.withLock { held in
      defer { held = nil }
      return held ?? []
    }
  }
}
