import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Process-wide stream set-up, done once before serving.
enum StandardStreams {
  /// Ignores SIGPIPE, so a write to a host that has gone away fails with EPIPE instead of killing us.
  static func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Ignores SIGXFSZ, so a store write past the file-size limit (`ulimit -f`) fails with EFBIG and is
  /// reported (-32020, kind `full`) instead of killing the server.
  static func ignoreSIGXFSZ() {
    signal(SIGXFSZ, SIG_IGN)
  }

  /// Moves the protocol to a private copy of fd 1 and points fd 1 at stderr, so a stray `print`
  /// from any library lands in the log instead of corrupting a frame. Returns the protocol fd.
  static func reserveStdoutForProtocol() -> Int32 {
    let protocolFD = dup(STDOUT_FILENO)
    guard protocolFD >= 0 else { return STDOUT_FILENO }
    _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
    dup2(STDERR_FILENO, STDOUT_FILENO)
    return protocolFD
  }

  static func writeStdout(_ text: String) {
    Files.writeAll(STDOUT_FILENO, text)
  }

  static func writeStderr(_ text: String) {
    Files.writeAll(STDERR_FILENO, text)
  }
}
