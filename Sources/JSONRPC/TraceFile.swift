import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Where a trace goes: a regular file kept under a size cap with one rotation (FILE, then FILE.1),
/// or a stream (a FIFO, a terminal) written as it comes, without a cap.
///
/// Opened 0600 without following a symbolic link, and refused when someone else owns it: the trace
/// holds what a host sent, which is the host's business only.
public final class TraceFile: @unchecked Sendable {
  public let path: String
  /// Largest size of FILE (and of FILE.1) in bytes.
  public let maxBytes: Int
  // Unchecked Sendable: the fields below belong to the one thread that writes the trace.
  private var fd: Int32
  private var written = 0
  /// A regular file: its writes always end (a FIFO's or a terminal's wait for a reader).
  public let isRegular: Bool

  /// Opens `path`; a non-empty trace left there by an earlier run becomes FILE.1 first.
  public init(path: String, maxBytes: Int) throws(SystemError) {
    self.path = path
    self.maxBytes = maxBytes
    // O_NONBLOCK: a FIFO nobody reads is refused at once (ENXIO) rather than hanging the start.
    fd = try Self.open(path, flags: O_NONBLOCK)
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw Self.closing(fd, SystemError.current("--trace: \(path)")) }
    guard status.st_uid == geteuid() else {
      throw Self.closing(fd, SystemError(code: EPERM, message: "--trace: \(path) belongs to another user"))
    }
    isRegular = (status.st_mode & S_IFMT) == S_IFREG
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    guard isRegular else { return }
    if status.st_mode & 0o077 != 0 { _ = fchmod(fd, 0o600) }
    if status.st_size > 0 { try rotate() }
  }

  deinit { close(fd) }

  /// Appends `text`, lines ending at `lineEnds`, each line whole in one file: a line that would take
  /// FILE past the cap first moves FILE to FILE.1. False when the file cannot be written (the
  /// trace then stops; the server goes on).
  public func write(_ text: [UInt8], lineEnds: [Int]) -> Bool {
    var start = 0
    var lineStart = 0
    for end in lineEnds {
      if isRegular, written + lineStart - start > 0, written + end - start > maxBytes {
        guard flush(text, start..<lineStart) else { return false }
        start = lineStart
        do { try rotate() } catch { return false }
      }
      lineStart = end
    }
    return flush(text, start..<text.count)
  }

  private func flush(_ text: [UInt8], _ range: Range<Int>) -> Bool {
    guard !range.isEmpty else { return true }
    guard Files.writeAll(fd, range.count == text.count ? text : Array(text[range])) else { return false }
    written += range.count
    return true
  }

  private func rotate() throws(SystemError) {
    guard rename(path, path + ".1") == 0 else { throw SystemError.current("--trace: cannot rotate \(path)") }
    close(fd)
    fd = -1
    fd = try Self.open(path, flags: O_EXCL)
    written = 0
  }

  private static func open(_ path: String, flags: Int32) throws(SystemError) -> Int32 {
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | flags, 0o600)
    guard fd >= 0 else {
      if errno == ENXIO { throw SystemError(code: ENXIO, message: "--trace: no process reads the FIFO \(path)") }
      throw SystemError.current("--trace: cannot open \(path)")
    }
    return fd
  }

  private static func closing(_ fd: Int32, _ error: SystemError) -> SystemError {
    close(fd)
    return error
  }
}
