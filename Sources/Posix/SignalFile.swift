#if canImport(Glibc)
  import Glibc
#endif

/// A small file beside another that processes signal each other through (watched with
/// `FileWatcher`): one byte rewritten in place is a ring that wakes every watcher, and an
/// exclusive `flock` on it is a lease the kernel ends when its holder closes it or dies.
public final class SignalFile: @unchecked Sendable {
  // Unchecked: `fd` never changes after init and the calls made on it are safe from any thread.
  private let fd: Int32
  public let path: String

  /// Opens `path` for writing, created with mode 0600 when missing; a symbolic link is refused.
  public init(path: String) throws(SystemError) {
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw SystemError.current("cannot open \(path)") }
    self.fd = fd
    self.path = path
  }

  deinit { close(fd) }

  /// Rewrites the file's one byte: every watcher of the file is woken.
  public func ring() {
    var byte: UInt8 = 0
    while pwrite(fd, &byte, 1, 0) < 0 && errno == EINTR {}
  }

  /// Takes the exclusive lock if no other descriptor holds it; false at once otherwise.
  public func tryLock() -> Bool {
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// Releases the lock, then rings, so the processes waiting for it try again.
  public func unlock() {
    flock(fd, LOCK_UN)
    ring()
  }
}
