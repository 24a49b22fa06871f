#if canImport(Glibc)
  import Glibc
#endif

/// A pipe whose two ends are closed on exec from the moment they exist: set afterwards with
/// `fcntl`, another thread's `posix_spawn` in between would hand them to its child, which would
/// then hold the pipe open for as long as it runs.
public enum Pipe {
  /// `what` names the pipe in the error thrown.
  public static func make(_ what: String = "pipe") throws(SystemError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    if let pipe2 {
      guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SystemError.current(what) }
    } else {
      guard pipe(&ends) == 0 else { throw SystemError.current(what) }
      for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }
    return (ends[0], ends[1])
  }

  private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

  /// glibc declares `pipe2` for GNU sources only, so Swift does not see it: looked up by name.
  private static let pipe2: Pipe2? = dlsym(dlopen(nil, RTLD_NOW), "pipe2").map {
    unsafeBitCast($0, to: Pipe2.self)
  }
}
