#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file read line by line, only when it is a regular file: a FIFO nobody writes would block for
/// ever and a device (`/dev/zero`) has no end, so both are refused rather than read. Opened
/// without blocking (a FIFO's open would wait for a writer), then checked with `fstat`, so a
/// symbolic link to either is refused too. Holds one line at a time: memory is the longest line.
public struct RegularFile: ~Copyable {
  private let fd: Int32
  private var buffer: [UInt8] = []
  /// Where the unread part of `buffer` starts.
  private var start = 0
  private var ended = false
  /// What one read fills, allocated once.
  private var chunk: [UInt8]

  /// `chunkSize`: the bytes one read asks for (tests make it small, so lines cross reads).
  public init(path: String, chunkSize: Int = 64 * 1024) throws(SystemError) {
    let fd = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0 else { throw SystemError.current("cannot open \(path)") }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let error = SystemError.current("cannot read \(path)")
      close(fd)
      throw error
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw SystemError(code: EINVAL, message: "\(path) is not a regular file (\(Self.kind(status.st_mode)))")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    self.fd = fd
    chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
  }

  deinit { close(fd) }

  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFDIR: "a directory"
    case S_IFSOCK: "a socket"
    default: "not a plain file"
    }
  }

  /// The next line without its LF (a last line without one too); nil at the end of the file.
  public mutating func nextLine() throws(SystemError) -> ArraySlice<UInt8>? {
    var searched = start
    while true {
      if let newline = Self.newline(in: buffer, from: searched) {
        defer { start = newline + 1 }
        return buffer[start..<newline]
      }
      searched = buffer.count
      if ended {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return buffer[start...]
      }
      // Drop what was handed out before reading more: the buffer holds the current line only.
      if start > 0 {
        buffer.removeSubrange(0..<start)
        searched -= start
        start = 0
      }
      try fill()
    }
  }

  /// The next bytes as they come (a copy's loop); nil at the end of the file.
  public mutating func nextChunk() throws(SystemError) -> ArraySlice<UInt8>? {
    if start < buffer.count {
      defer { start = buffer.count }
      return buffer[start...]
    }
    guard !ended else { return nil }
    buffer.removeAll(keepingCapacity: true)
    start = 0
    try fill()
    return try nextChunk()
  }

  private mutating func fill() throws(SystemError) {
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw SystemError.current("read") }
      if count == 0 { ended = true }
      buffer.append(contentsOf: chunk[0..<count])
      return
    }
  }

  /// The index of the first LF in `bytes` at or after `start` (memchr).
  private static func newline(in bytes: [UInt8], from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, let hit = memchr(base + start, 0x0A, buffer.count - start) else {
        return nil
      }
      return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
  }
}
