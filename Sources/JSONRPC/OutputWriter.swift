import JSON
import Posix

/// The one writer of protocol frames: each frame goes out whole in one `write` loop under a lock,
/// so frames never interleave, and nothing is buffered, so every frame is flushed as written.
public final class OutputWriter: @unchecked Sendable {
  private let fd: Int32
  // Guarded by `lock`: `framing`, `closed`.
  private let lock = ConditionLock()
  private var framing: Framing = .ndjson
  private var closed = false
  /// Called once, from the writing thread, when the host has closed its end (EPIPE).
  private let onClosed: @Sendable () -> Void

  public init(fd: Int32, onClosed: @escaping @Sendable () -> Void = {}) {
    self.fd = fd
    self.onClosed = onClosed
  }

  /// Sets the framing replies use: the one the host's input was read in.
  public func use(_ framing: Framing) {
    lock.lock()
    self.framing = framing
    lock.unlock()
  }

  /// Encodes and writes one message as one frame. Encoding happens outside the lock.
  public func send(_ message: JSONValue) {
    let frame: [UInt8]
    switch currentFraming {
    case .ndjson:
      frame = message.serialized(terminatedBy: 0x0A)
    case .lsp:
      // Content-Length counts bytes of the UTF-8 body, written first and exactly as LSP clients parse it.
      let body = message.serialized()
      var framed = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
      framed.append(contentsOf: body)
      frame = framed
    }
    emit(frame)
  }

  private var currentFraming: Framing {
    lock.lock()
    defer { lock.unlock() }
    return framing
  }

  /// Writes one whole frame, unless the host has gone.
  private func emit(_ frame: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return }
    if !writeAll(frame) {
      closed = true
      onClosed()
    }
  }

  private func writeAll(_ bytes: [UInt8]) -> Bool {
    Files.writeAll(fd, bytes)
  }
}
