import JSON
import Posix
import Synchronization

/// The one writer of protocol frames: each frame goes out whole in one `write` loop under a lock,
/// so frames never interleave, and nothing is buffered, so every frame is flushed as written.
public final class OutputWriter: Sendable {
  private let fd: Int32
  private let state = Mutex<(framing: Framing, closed: Bool)>((.ndjson, false))
  /// Called once, from the writing thread, when the host has closed its end (EPIPE).
  private let onClosed: @Sendable () -> Void

  public init(fd: Int32, onClosed: @escaping @Sendable () -> Void = {}) {
    self.fd = fd
    self.onClosed = onClosed
  }

  /// Sets the framing replies use: the one the host's input was read in.
  public func use(_ framing: Framing) {
    state.withLock { $0.framing = framing }
  }

  /// Encodes and writes one message as one frame. Encoding happens outside the lock.
  public func send(_ message: JSONValue) {
    switch currentFraming {
    case .ndjson: emit([message.serialized(terminatedBy: 0x0A)])
    case .lsp: send(encoded: message.serialized())
    }
  }

  /// Writes one already encoded JSON text as one frame (a batch's array, built member by member).
  public func send(encoded body: [UInt8]) {
    switch currentFraming {
    case .ndjson: emit([body, [0x0A]])
    // Content-Length counts bytes of the UTF-8 body, written first and exactly as LSP clients parse it.
    case .lsp: emit([Array("Content-Length: \(body.count)\r\n\r\n".utf8), body])
    }
  }

  private var currentFraming: Framing { state.withLock { $0.framing } }

  /// Writes the parts of one whole frame back to back, unless the host has gone.
  private func emit(_ parts: [[UInt8]]) {
    state.withLock { state in
      guard !state.closed else { return }
      for part in parts where !writeAll(part) {
        state.closed = true
        onClosed()
        return
      }
    }
  }

  private func writeAll(_ bytes: [UInt8]) -> Bool {
    Files.writeAll(fd, bytes)
  }
}
