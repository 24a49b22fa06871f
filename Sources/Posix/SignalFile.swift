import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small file beside another that processes signal each other through (watched with
/// `FileWatcher`): one byte rewritten in place is a ring that wakes every watcher, an exclusive
/// `flock` on it is a lease the kernel ends when its holder closes it or dies, and a shared
/// open-file-description lock on its second byte, held while it is open, says it is there
/// (`othersPresent`). Both kinds of lock end with the descriptor, `kill -9` included.
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
    var presence = Self.presenceRange(type: F_RDLCK)
    hasPresence = fcntl(fd, Self.setOpenFileLock, &presence) == 0
  }

  // Linux's open-file-description locks (fcntl.h), which Glibc's module does not name: unlike
  // process-wide ones they tell two descriptors of one process apart, and closing another
  // descriptor of the file does not drop them.
  private static let getOpenFileLock: Int32 = 36
  private static let setOpenFileLock: Int32 = 37
  /// False when the kernel refused the presence lock: others are then assumed to be there.
  private let hasPresence: Bool

  private static func presenceRange(type: Int32) -> flock {
    var range = flock()
    range.l_type = Int16(type)
    range.l_whence = Int16(SEEK_SET)
    range.l_start = 1
    range.l_len = 1
    return range
  }

  /// True when another descriptor of the file is open in this way, in this process or another
  /// (one system call; true when it cannot be told).
  public func othersPresent() -> Bool {
    guard hasPresence else { return true }
    var probe = Self.presenceRange(type: F_WRLCK)
    guard fcntl(fd, Self.getOpenFileLock, &probe) == 0 else { return true }
    return probe.l_type != Int16(F_UNLCK)
  }

  private let closed = Atomic<Bool>(false)

  deinit { close() }

  /// Closes the file: its locks end, and watchers see the close. Nothing may be rung after.
  public func close() {
    if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(fd) }
  }

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
