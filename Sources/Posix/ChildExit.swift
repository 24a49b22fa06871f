import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Tells when a child process has exited, and reaps it, with no thread waiting. Linux has no
/// Dispatch process source (macOS's `DISPATCH_SOURCE_TYPE_PROC` would take its place behind the
/// same call): a read source watches a pidfd, readable from the child's exit for as long as it is
/// not reaped, so a child that exited before the source was armed is told of at once. Where the
/// kernel or the C library has no pidfd, a SIGCHLD signal source asks instead, and asks once more
/// when it is armed, for a signal that came before. Either way the status is read with
/// `waitpid(WNOHANG)`, which never blocks.
///
/// The pidfd is reaped only in the source's event handler, while Dispatch has disarmed it: reaped
/// with the source armed, the pidfd would hang up, and libdispatch's epoll backend takes a hung-up
/// source apart off its manager thread, racing the sources other threads register (a crash).
public enum ChildExit {
  /// Calls `exited` once on `queue` with the exit status of child `pid` (128 + the signal that
  /// killed it), after reaping it. `bySignal` takes the SIGCHLD way even where a pidfd can be had.
  public static func whenExited(
    _ pid: pid_t, on queue: DispatchQueue, bySignal: Bool = false, _ exited: @escaping @Sendable (Int32) -> Void
  ) {
    let pidfd = bySignal ? -1 : pidfdOpen.map { $0(pid, 0) } ?? -1
    let source: any DispatchSourceProtocol =
      pidfd >= 0
      ? DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
      : DispatchSource.makeSignalSource(signal: SIGCHLD, queue: queue)
    // A SIGCHLD comes for any child (or for one that stopped): each is only a cue to ask.
    let check = {
      guard !source.isCancelled, let status = reaped(pid) else { return }
      source.cancel()
      exited(status)
    }
    source.setEventHandler(handler: check)
    if pidfd < 0 { source.setRegistrationHandler(handler: check) }
    source.setCancelHandler { if pidfd >= 0 { close(pidfd) } }
    source.resume()
  }

  /// The child's exit status once it has exited and is reaped now; nil while it runs. One another
  /// reaped (`ECHILD`) counts as exited with status 0, as `waitpid` leaves it.
  private static func reaped(_ pid: pid_t) -> Int32? {
    var status: Int32 = 0
    var found = waitpid(pid, &status, WNOHANG)
    while found < 0 && errno == EINTR { found = waitpid(pid, &status, WNOHANG) }
    guard found != 0 else { return nil }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

  /// glibc's `pidfd_open` (2.36 and later), looked up when first needed so that an older C library
  /// still loads the binary; nil there. It fails (ENOSYS) on a kernel older than 5.3.
  private static let pidfdOpen: PidfdOpen? = dlsym(dlopen(nil, RTLD_NOW), "pidfd_open").map {
    unsafeBitCast($0, to: PidfdOpen.self)
  }
}
