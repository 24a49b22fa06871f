import JSON
import Posix
import Synchronization

/// Where frames go: the writer itself, or frames held to go out together (`HeldFrames`).
public protocol FrameSink: Sendable {
  func send(_ message: JSONValue)
  func send(line: [UInt8])
}

/// The one writer of protocol frames: each frame goes out whole under a lock, so frames never
/// interleave, and nothing is buffered past its request, so every frame is flushed by the time the
/// request that made it is answered. A frame begun is finished however slowly the host reads; a
/// host that takes none of it for the patience (`limitPatience`) is given up on.
public final class OutputWriter: FrameSink {
  private struct State {
    var framing = Framing.ndjson
    var closed = false
  }

  private let output: PatientWriter
  private let state = Mutex(State())
  /// Called once, from the writing thread, when the host has closed its end (EPIPE: `.closed`) or
  /// took nothing for the limit's length (`.stalled`).
  private let onGone: @Sendable (PatientWriter.Outcome) -> Void
  /// Gets every frame's body as it goes out (`--trace`).
  private let tracer: Tracer?

  public init(fd: Int32, tracer: Tracer? = nil, onGone: @escaping @Sendable (PatientWriter.Outcome) -> Void = { _ in })
  {
    output = PatientWriter(fd: fd)
    self.tracer = tracer
    self.onGone = onGone
  }

  /// From now on a host that takes no output for `seconds` is gone: frames still to write are
  /// dropped and `onGone(.stalled)` is called. Until then a write waits for the host for ever.
  public func limitPatience(seconds: Double) { output.limit(seconds: seconds) }

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

  /// Writes one whole frame, unless the host has gone.
  func emit(_ frame: [UInt8]) {
    state.withLock { state in write(frame, &state) }
  }

  private func write(_ bytes: [UInt8], _ state: inout State) {
    guard !state.closed, !bytes.isEmpty else { return }
    let outcome = output.writeAll(bytes)
    guard outcome != .written else { return }
    state.closed = true
    onGone(outcome)
  }
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
