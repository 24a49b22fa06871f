import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to a reader that may be slow or may stop reading: waits for it for ever until a limit is
/// set (`limit(seconds:)`), then gives up once the reader has taken nothing for that long.
///
/// Each piece is written only once `poll` says the descriptor takes output, and a piece is at most
/// `PIPE_BUF` bytes to anything but a regular file, which a pipe with room takes without blocking;
/// so no write blocks past the limit. A wait that began without a limit is woken when one is set
/// (a pipe of its own), so the limit also bounds a write already under way.
public final class PatientWriter: Sendable {
  /// How a write ended.
  public enum Outcome: Sendable, Equatable {
    case written
    /// The reader has gone (EPIPE, or the descriptor is broken).
    case closed
    /// The reader took nothing for the limit's length.
    case stalled
  }

  private let fd: Int32
  private let piece: Int
  /// Milliseconds a reader may take nothing; -1 while there is no limit.
  private let patience = Atomic<Int32>(-1)
  private let wakeUp: (read: Int32, write: Int32)

  public init(fd: Int32) {
    self.fd = fd
    var status = stat()
    let regularFile = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    piece = regularFile ? Int.max : Int(PIPE_BUF)
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    wakeUp = (ends[0], ends[1])
  }

  /// From now on a reader that takes nothing for `seconds` is given up on. Set once.
  public func limit(seconds: Double) {
    let milliseconds = Int32(clamping: Int((seconds * 1000).rounded(.up)))
    guard
      patience.compareExchange(expected: -1, desired: max(0, milliseconds), ordering: .acquiringAndReleasing)
        .exchanged
    else { return }
    var byte: UInt8 = 1
    _ = write(wakeUp.write, &byte, 1)
  }

  /// Writes every byte, each piece once the reader has room for it.
  public func writeAll(_ bytes: [UInt8]) -> Outcome {
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return .written }
      var offset = 0
      while offset < raw.count {
        guard awaitRoom() else { return .stalled }
        let written = write(fd, base + offset, min(piece, raw.count - offset))
        if written < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return .closed
        }
        offset += written
      }
      return .written
    }
  }

  /// Waits until the descriptor takes output (or reports an error, which the write then meets);
  /// false when the limit ran out first.
  private func awaitRoom() -> Bool {
    while true {
      let limit = patience.load(ordering: .acquiring)
      var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
      // Without a limit the wait also watches for one being set.
      if limit < 0, wakeUp.read >= 0 { fds.append(pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), limit)
      if ready < 0 {
        if errno == EINTR { continue }
        return true
      }
      if ready == 0 { return false }
      if fds[0].revents != 0 { return true }
    }
  }
}
