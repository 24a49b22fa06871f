import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to a reader that may be slow or may stop reading without ever blocking the calling
/// thread: a write takes what the reader has room for and says when it has none (`.full`), and the
/// caller asks to be called back when there is room (a Dispatch write source on `pollable`).
///
/// The descriptor's own open file may be shared with other processes (a terminal, the host's end
/// of a pipe), so it is never made non-blocking itself: a pipe, FIFO or terminal is opened again
/// through /proc (an open file of our own, non-blocking); a socket is written with `MSG_DONTWAIT`;
/// a regular file or a device that cannot be polled (/dev/null) takes every write at once anyway.
/// Only when /proc cannot open it is the descriptor itself made non-blocking.
public final class NonBlockingWriter: Sendable {
  /// What one write did.
  public enum Attempt: Equatable, Sendable {
    /// It took this many bytes: at least one of bytes not empty.
    case wrote(Int)
    /// The reader has no room: call again once `pollable` is writable.
    case full
    /// The reader has gone (EPIPE, or the descriptor is broken).
    case closed
  }

  private enum Route {
    case write
    case send
  }

  /// The descriptor written to, and watched for room.
  public let pollable: Int32
  private let route: Route
  private let ownsDescriptor: Bool

  public init(fd: Int32) {
    var status = stat()
    let type = fstat(fd, &status) == 0 ? status.st_mode & S_IFMT : 0
    if type == S_IFSOCK {
      (pollable, route, ownsDescriptor) = (fd, .send, false)
    } else if type == S_IFREG || type == S_IFBLK {
      (pollable, route, ownsDescriptor) = (fd, .write, false)
    } else {
      let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if own >= 0 {
        (pollable, route, ownsDescriptor) = (own, .write, true)
      } else {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        (pollable, route, ownsDescriptor) = (fd, .write, false)
      }
    }
  }

  deinit {
    if ownsDescriptor { close(pollable) }
  }

  /// Writes a prefix of `bytes` (not empty) that the reader has room for.
  public func write(_ bytes: UnsafeRawBufferPointer) -> Attempt {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return .wrote(0) }
    while true {
      let written =
        switch route {
        case .write: Glibc.write(pollable, base, bytes.count)
        case .send: send(pollable, base, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
      if written > 0 { return .wrote(written) }
      if written < 0 && errno == EINTR { continue }
      if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .full }
      return .closed
    }
  }

  /// Calls `body` once, on `queue`, when the reader has room again (a one-shot Dispatch write
  /// source on `pollable`): what a caller that met `.full` waits with, holding no thread.
  public func whenRoom(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    let room = DispatchSource.makeWriteSource(fileDescriptor: pollable, queue: queue)
    room.setEventHandler {
      room.cancel()
      body()
    }
    room.activate()
  }
}
