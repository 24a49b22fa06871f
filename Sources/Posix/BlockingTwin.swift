import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking twin of a descriptor another process made non-blocking: the commands write their
/// output whole, and a write that has no room then waits in the kernel, in `write(2)` itself, as
/// every command-line tool's does, rather than in a loop that polls.
///
/// A pipe, FIFO or terminal is opened again through `/proc/self/fd`, which makes a file description
/// of its own whose flags are this process's: the other process's stays non-blocking. A socket
/// cannot be opened again; its one description is made blocking (the server's own output does not
/// mind: it sends with `MSG_DONTWAIT`). A regular file never lacks room.
enum BlockingTwin {
  private static let twins = Mutex<[Int32: Int32]>([:])

  /// The descriptor to write `fd`'s bytes through when `fd` said it had no room (EAGAIN); nil when
  /// none can be made (the write then fails).
  static func of(_ fd: Int32) -> Int32? {
    if let known = twins.withLock({ $0[fd] }) { return known }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    let made: Int32
    if status.st_mode & S_IFMT == S_IFSOCK {
      guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 else { return nil }
      made = fd
    } else {
      made = open("/proc/self/fd/\(fd)", O_WRONLY | O_CLOEXEC)
      guard made >= 0 else { return nil }
    }
    let kept = twins.withLock { twins -> Int32 in
      if let other = twins[fd] { return other }
      twins[fd] = made
      return made
    }
    if kept != made, made != fd { close(made) }
    return kept
  }
}
