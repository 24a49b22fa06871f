import JSON
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a generated page to a file or standard output.
enum PageOutput {
  /// True when all of `text` was written; otherwise says why on stderr.
  static func write(_ text: String, to path: String?, command: String) -> Bool {
    guard let path else { return Files.writeAll(STDOUT_FILENO, text) }
    let fd = FileName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    // The name as given may hold control characters: shown as text for people.
    let shown = path.escapingControlCharacters
    guard fd >= 0 else {
      StandardStreams.writeStderr("inbox-rpc \(command): \(shown): \(SystemError.current("open"))\n")
      return false
    }
    let written = Files.writeAll(fd, text)
    let closed = close(fd) == 0
    if !written || !closed { StandardStreams.writeStderr("inbox-rpc \(command): \(shown): write failed\n") }
    return written && closed
  }
}
