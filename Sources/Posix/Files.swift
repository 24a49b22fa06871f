#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File and process plumbing without Foundation.
public enum Files {
  /// Writes every byte, looping on short writes and EINTR; a descriptor another process made
  /// non-blocking is written through its blocking twin (`BlockingTwin`) once it has no room. False
  /// when the descriptor is closed or broken.
  @discardableResult
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var target = fd
      var twinned = false
      var offset = 0
      while offset < raw.count {
        let written = write(target, base + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          if errno == EAGAIN, !twinned, let twin = BlockingTwin.of(fd) {
            (target, twinned) = (twin, true)
            continue
          }
          return false
        }
        offset += written
      }
      return true
    }
  }

  @discardableResult
  public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
    writeAll(fd, Array(text.utf8))
  }

  /// Everything readable from `fd` until end of file.
  /// `expectedSize` (a regular file's size) is reserved up front, so a large file is not copied
  /// as the array grows; the chunk read into is on the stack, so a small file costs no zeroed
  /// buffer of its own.
  public static func readAll(_ fd: Int32, expectedSize: Int = 0) throws(SystemError) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(expectedSize)
    let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 1024) { chunk -> SystemError? in
      while true {
        let count = Glibc.read(fd, chunk.baseAddress, chunk.count)
        if count < 0 {
          if errno == EINTR { continue }
          return SystemError.current("read")
        }
        if count == 0 { return nil }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<count]))
      }
    }
    if let done { throw done }
    return output
  }

  /// The whole file at `path`.
  public static func contents(of path: String) throws(SystemError) -> [UInt8] {
    let fd = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { throw SystemError.current("cannot open \(path)") }
    defer { close(fd) }
    var status = stat()
    let size = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
    return try readAll(fd, expectedSize: size)
  }

  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return FileName.withCString(path) { stat($0, &status) } == 0
  }

  /// `mkdir -p` with `mode` for every directory it creates.
  public static func createDirectories(_ path: String, mode: mode_t) throws(SystemError) {
    guard !path.isEmpty, !exists(path) else { return }
    let parent = directory(of: path)
    if !parent.isEmpty, parent != path { try createDirectories(parent, mode: mode) }
    if mkdir(path, mode) != 0 && errno != EEXIST { throw SystemError.current("cannot create the directory \(path)") }
  }

  /// The directory part of a path (`""` for a bare name, `/` for a file at the root).
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

}

/// A failed system call: what was attempted and `strerror`'s words for errno.
public struct SystemError: Error, Sendable, CustomStringConvertible {
  public var code: Int32
  public var message: String

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  public static func current(_ what: String) -> SystemError {
    let code = errno
    return SystemError(code: code, message: "\(what): \(String(cString: strerror(code)))")
  }

  public var description: String { message }
}

/// Random bytes as lower-case hex, from the system's generator.
public func randomHex(bytes: Int) -> String {
  var generator = SystemRandomNumberGenerator()
  var text = ""
  for _ in 0..<bytes {
    let byte = UInt8.random(in: 0...255, using: &generator)
    text += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
  }
  return text
}

/// Environment variables, read one at a time with getenv: no dictionary of the whole environment
/// is built at start-up. `init(_:)` stands in a fixed set (tests).
public struct Environment: Sendable {
  private let fixed: [String: String]?

  /// The process's own environment.
  public static let process = Environment(nil)

  public init(_ fixed: [String: String]?) { self.fixed = fixed }

  public subscript(name: String) -> String? {
    if let fixed { return fixed[name] }
    return getenv(name).map { String(cString: $0) }
  }
}
