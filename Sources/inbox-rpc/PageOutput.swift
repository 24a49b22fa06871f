import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a generated page to a file or standard output.
enum PageOutput {
  /// True when all of `text` was written; otherwise says why on stderr.
  static func write(_ text: String, to path: String?, command: String) -> Bool {
    guard let path else { return Files.writeAll(STDOUT_FILENO, text) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      StandardStreams.writeStderr("inbox-rpc \(command): \(path): \(SystemError.current("open"))\n")
      return false
    }
    let written = Files.writeAll(fd, text)
    let closed = close(fd) == 0
    if !written || !closed { StandardStreams.writeStderr("inbox-rpc \(command): \(path): write failed\n") }
    return written && closed
  }
}
