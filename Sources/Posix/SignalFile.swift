import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small file beside another that processes signal each other through (watched with
/// `FileWatcher`): one byte rewritten in place is a ring that wakes every watcher, an exclusive
/// `flock` on it is a lease the kernel ends when its holder closes it or dies, and a shared
/// open-file-description lock on its second byte, held while it is open, says it is there
/// (`othersPresent`). An exclusive one on its first byte is held while a process opens the store
/// (`takeOpeningLock`), and bytes 8 to 15 carry the lease holder's last sign of life (`beat`). Every
/// lock ends with the descriptor, `kill -9` included.
///
/// The file is vetted (`vet`) on its open descriptor before any lock is taken on it: another user's
/// file, or one others can write, would let them hold these locks or fake the rings.
public final class SignalFile: Sendable {
  /// What the caller requires of the opened file, checked on its descriptor; throws to refuse it.
  public typealias Vet = @Sendable (_ fd: Int32, _ path: String) throws -> Void

  public let path: String
  private let vet: Vet
  /// The open descriptor, nil once closed; replaced when the path names a new file (`reopen`).
  private let descriptor: Mutex<Int32?>
  /// False when the kernel refused the presence lock: others are then assumed to be there.
  private let hasPresence = Atomic<Bool>(false)

  /// Opens `path` for writing, created with mode 0600 when missing; a symbolic link is refused, and
  /// so is anything `vet` refuses (the error it threw, as is).
  public init(path: String, vet: @escaping Vet) throws {
    self.path = path
    self.vet = vet
    descriptor = Mutex(try Self.open(path, vet))
    present()
  }

  private static func open(_ path: String, _ vet: Vet) throws -> Int32 {
    // Non-blocking, so a FIFO planted at the path opens (and is then refused) rather than hangs.
    let fd = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw SystemError.current("cannot open \(path)") }
    do {
      try vet(fd, path)
    } catch {
      Glibc.close(fd)
      throw error
    }
    return fd
  }

  private func present() {
    var presence = Self.range(start: 1, type: F_RDLCK)
    let taken = withDescriptor { fcntl($0, Self.setOpenFileLock, &presence) == 0 } ?? false
    hasPresence.store(taken, ordering: .relaxed)
  }

  // Linux's open-file-description locks (fcntl.h), which Glibc's module does not name: unlike
  // process-wide ones they tell two descriptors of one process apart, and closing another
  // descriptor of the file does not drop them.
  private static let getOpenFileLock: Int32 = 36
  private static let setOpenFileLock: Int32 = 37

  private static func range(start: Int, type: Int32) -> flock {
    var range = flock()
    range.l_type = Int16(type)
    range.l_whence = Int16(SEEK_SET)
    range.l_start = start
    range.l_len = 1
    return range
  }

  private func withDescriptor<T: Sendable>(_ body: (Int32) -> T) -> T? {
    descriptor.withLock { fd -> T? in
      guard let fd else { return nil }
      return body(fd)
    }
  }

  /// True when another descriptor of the file is open in this way, in this process or another
  /// (one system call; true when it cannot be told).
  public func othersPresent() -> Bool {
    guard hasPresence.load(ordering: .relaxed) else { return true }
    var probe = Self.range(start: 1, type: F_WRLCK)
    guard withDescriptor({ fcntl($0, Self.getOpenFileLock, &probe) }) == 0 else { return true }
    return probe.l_type != Int16(F_UNLCK)
  }

  /// Closes the file: its locks end, and watchers see the close. Nothing may be rung after.
  public func close() {
    descriptor.withLock { fd in
      if let open = fd { Glibc.close(open) }
      fd = nil
    }
  }

  /// Rewrites the file's one byte: every watcher of the file is woken.
  public func ring() {
    var byte: UInt8 = 0
    _ = withDescriptor { fd in
      while pwrite(fd, &byte, 1, 0) < 0 && errno == EINTR {}
    }
  }

  // MARK: - Opening

  /// Takes the exclusive lock on the first byte, so two processes opening the store take turns,
  /// then calls `then` with whether it holds it: at once when it is free; when the holder releases
  /// it; or false once `seconds` have passed (the holder is stopped, or slow: the caller opens
  /// anyway). Only processes that can open the file (its owner's) can hold it. `releaseOpeningLock`
  /// ends it.
  ///
  /// No thread waits: the lock is only ever tried (`F_OFD_SETLK`), again each time the file is
  /// written or a descriptor that wrote it closes (`FileWatcher`): the holder rings as it releases
  /// the lock, and the kernel closes its descriptor when it ends, `kill -9` included.
  public func takeOpeningLock(waitingAtMost seconds: Double, then: @escaping @Sendable (_ held: Bool) -> Void) {
    if tryOpeningLock() { return then(true) }
    OpeningLockWait(file: self, then: then).start(seconds: seconds)
  }

  /// Takes the opening lock if it is free; false at once otherwise.
  func tryOpeningLock() -> Bool {
    var lock = Self.range(start: 0, type: F_WRLCK)
    return withDescriptor { fcntl($0, Self.setOpenFileLock, &lock) == 0 } ?? false
  }

  /// Releases the opening lock `takeOpeningLock` took, and rings when another process has the file
  /// open: it may be waiting for the lock.
  public func releaseOpeningLock() {
    var unlock = Self.range(start: 0, type: F_UNLCK)
    _ = withDescriptor { fcntl($0, Self.setOpenFileLock, &unlock) }
    if othersPresent() { ring() }
  }

  // MARK: - The lease

  /// Takes the exclusive lock if no other descriptor holds it; false at once otherwise.
  public func tryLock() -> Bool {
    withDescriptor { fd in
      while flock(fd, LOCK_EX | LOCK_NB) != 0 {
        if errno != EINTR { return false }
      }
      return true
    } ?? false
  }

  /// Releases the lock, then rings, so the processes waiting for it try again.
  public func unlock() {
    _ = withDescriptor { flock($0, LOCK_UN) }
    ring()
  }

  /// Writes the lease holder's sign of life: the machine's monotonic clock, which every process
  /// reads alike, in bytes 8 to 15 (waking every watcher, as a ring does).
  public func beat() {
    var now = Clock.monotonicNanoseconds
    _ = withDescriptor { fd in
      while pwrite(fd, &now, 8, 8) < 0 && errno == EINTR {}
    }
  }

  /// Seconds since the holder's last `beat` (nil when none was written).
  public func secondsSinceBeat() -> Double? {
    var stamp: UInt64 = 0
    let count = withDescriptor { fd in pread(fd, &stamp, 8, 8) } ?? 0
    guard count == 8, stamp > 0 else { return nil }
    let now = Clock.monotonicNanoseconds
    return now > stamp ? Double(now - stamp) / 1_000_000_000 : 0
  }

  // MARK: - Replacement

  /// True when the path names another file than the one open: the file was deleted and made
  /// again (by a process opening the store), or another was put in its place.
  public var isReplaced: Bool {
    var named = stat()
    var open = stat()
    guard stat(path, &named) == 0, withDescriptor({ fstat($0, &open) }) == 0 else { return false }
    return named.st_dev != open.st_dev || named.st_ino != open.st_ino
  }

  /// A path naming the open file itself, whatever its name became (`/proc/self/fd/N`), for a
  /// watch that must follow the file even once its name was deleted; nil once closed.
  public var openFilePath: String? { withDescriptor { "/proc/self/fd/\($0)" } }

  /// Opens the file the path names now (created when missing, vetted as at first) in place of the
  /// one open, which is closed: its locks end with it.
  public func reopen() throws {
    let fresh = try Self.open(path, vet)
    descriptor.withLock { fd in
      if let old = fd { Glibc.close(old) }
      fd = fresh
    }
    present()
  }
}
