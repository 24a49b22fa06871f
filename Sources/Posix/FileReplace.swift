#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Files {
  /// Writes `text` to `path` whole or not at all: into a hidden file beside it, then renamed over
  /// it, so a reader (or a run stopped halfway) never sees half a file.
  public static func replace(_ path: String, with text: String, mode: mode_t = 0o644) throws(SystemError) {
    let directory = directory(of: path)
    let temporary = (directory.isEmpty ? "" : directory + "/") + ".partial-" + randomHex(bytes: 8)
    let fd = FileName.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
    guard fd >= 0 else { throw SystemError.current("cannot create \(temporary)") }
    let written = writeAll(fd, text)
    let closed = close(fd) == 0
    guard written, closed,
      FileName.withCString(temporary, { from in FileName.withCString(path) { rename(from, $0) } }) == 0
    else {
      let failure = SystemError.current("cannot write \(path)")
      _ = FileName.withCString(temporary) { unlink($0) }
      throw failure
    }
  }

  /// Removes the file at `path`; true when it is gone.
  @discardableResult
  public static func remove(_ path: String) -> Bool {
    FileName.withCString(path) { unlink($0) } == 0 || errno == ENOENT
  }
}
