import JSON
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The one writer of protocol frames: each frame goes out whole in one `write` under a lock, so
/// frames never interleave, and nothing is buffered past its request, so every frame is flushed by
/// the time the request that made it is answered.
public final class OutputWriter: Sendable {
  private struct State {
    var framing = Framing.ndjson
    var closed = false
    /// Frames a thread inside `coalescing` has sent, not written yet, and that thread.
    var held: (thread: pthread_t, bytes: [UInt8])?
  }

  private let fd: Int32
  private let state = Mutex(State())
  /// Called once, from the writing thread, when the host has closed its end (EPIPE).
  private let onClosed: @Sendable () -> Void
  /// Gets every frame's body as it goes out (`--trace`).
  private let tracer: Tracer?

  public init(fd: Int32, tracer: Tracer? = nil, onClosed: @escaping @Sendable () -> Void = {}) {
    self.fd = fd
    self.tracer = tracer
    self.onClosed = onClosed
  }

  /// Sets the framing replies use: the one the host's input was read in.
  public func use(_ framing: Framing) {
    state.withLock { $0.framing = framing }
  }

  /// Encodes and writes one message as one frame. Encoding happens outside the lock.
  public func send(_ message: JSONValue) {
    send(line: message.serialized(terminatedBy: 0x0A))
  }

  /// Writes one JSON text encoded with its newline already after it (made so, it is never copied
  /// again to add one).
  public func send(line: [UInt8]) {
    tracer?.record(.outgoing, line, isJSON: true)
    switch currentFraming {
    case .ndjson: emit(line)
    case .lsp: emit(header: Array(line.dropLast()))
    }
  }

  /// Writes one already encoded JSON text as one frame (a batch's array, built member by member).
  public func send(encoded body: [UInt8]) {
    tracer?.record(.outgoing, body, isJSON: true)
    switch currentFraming {
    case .ndjson: emit(body + [0x0A])
    case .lsp: emit(header: body)
    }
  }

  /// Content-Length counts bytes of the UTF-8 body, written first and exactly as LSP clients parse it.
  private func emit(header body: [UInt8]) {
    emit(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
  }

  /// Runs `body`, holding the frames this thread sends meanwhile, and writes them together in one
  /// `write` when it returns: a request answered on the reader sends its notifications (which
  /// announce what it committed) and its reply as one write, so a host wakes once, not per frame.
  /// Frames other threads send meanwhile (a background sync's progress) are written at once.
  public func coalescing<T>(_ body: () -> T) -> T {
    state.withLock { $0.held = (pthread_self(), []) }
    let result = body()
    state.withLock { state in
      guard let held = state.held else { return }
      state.held = nil
      write(held.bytes, &state)
    }
    return result
  }

  private var currentFraming: Framing { state.withLock { $0.framing } }

  /// Writes one whole frame, unless the host has gone; holds it when this thread is coalescing.
  private func emit(_ frame: [UInt8]) {
    state.withLock { state in
      if let held = state.held, pthread_equal(held.thread, pthread_self()) != 0 {
        // The usual request holds one frame, its reply: kept as it is, not copied.
        state.held?.bytes = held.bytes.isEmpty ? frame : held.bytes + frame
      } else {
        write(frame, &state)
      }
    }
  }

  private func write(_ bytes: [UInt8], _ state: inout State) {
    guard !state.closed, !bytes.isEmpty, !Files.writeAll(fd, bytes) else { return }
    state.closed = true
    onClosed()
  }
}
