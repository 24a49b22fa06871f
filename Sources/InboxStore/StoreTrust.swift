import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Whether a store's files are the user's alone. The inbox holds the user's messages and the backend
/// settings the API token is sent to, so a file another user owns or can write is refused (that user
/// could read the inbox or point its sync elsewhere), and one others can only read is made 0600.
///
/// Checked on open descriptors (`fstat`), never by path after the fact, so the file checked is the
/// file used; the store itself and its `-wal` and `-shm` are opened without following a symbolic link.
enum StoreTrust {
  /// What the user can do about a refused store.
  static let remedy = "move it away (or give --store a path of your own) and start again"

  /// Refuses a directory that others can write without the sticky bit (they could replace the store
  /// or plant its `-wal`), or that belongs to another user (other than root).
  static func checkDirectory(_ directory: String) throws(StoreError) {
    let shown = directory.isEmpty ? "." : directory
    var info = stat()
    guard stat(shown, &info) == 0 else {
      throw StoreError(kind: .cannotOpen, message: "cannot read the directory \(shown): \(reason())")
    }
    if let problem = directoryProblem(info) { throw refusal("the directory \(shown)", problem) }
  }

  /// Why a directory (its `stat`) is not one only this user and root can change names in: nil when
  /// it is, or when others can but the sticky bit keeps them from renaming or removing this user's.
  static func directoryProblem(_ info: stat) -> String? {
    if info.st_uid != geteuid() && info.st_uid != 0 { return "belongs to another user (uid \(info.st_uid))" }
    if info.st_mode & 0o022 != 0 && info.st_mode & mode_t(S_ISVTX) == 0 {
      return "can be written by other users and has no sticky bit"
    }
    return nil
  }

  /// Refuses an opened store file, or a `-wal`/`-shm` beside it, that is not a regular file, belongs
  /// to another user, or others can write.
  static func check(_ fd: Int32, _ path: String) throws(StoreError) {
    let info = try status(fd, path)
    guard info.st_mode & S_IFMT == S_IFREG else { throw refusal(path, "is not a regular file") }
    if info.st_uid != geteuid() {
      throw refusal(path, "belongs to another user (uid \(info.st_uid)), who could read the inbox")
    }
    if info.st_mode & 0o022 != 0 {
      throw refusal(path, "can be written by other users (mode \(octal(info.st_mode)))")
    }
  }

  /// Makes an opened file 0600: always for a file adopted as a new store, else when others can read
  /// it, with a warning naming the mode it had.
  static func tighten(_ fd: Int32, _ path: String, adopted: Bool, warn: (String) -> Void) throws(StoreError) {
    let info = try status(fd, path)
    let mode = info.st_mode & 0o7777
    guard mode != 0o600 else { return }
    guard adopted || mode & 0o077 != 0 else { return }
    guard fchmod(fd, 0o600) == 0 else {
      throw StoreError(kind: .cannotOpen, message: "cannot make \(path) private (chmod 600): \(reason())")
    }
    if !adopted { warn("\(path) could be read by other users (mode \(octal(mode))); it is now 0600") }
  }

  /// Checks `path-wal` and `path-shm` when they exist, and makes them 0600 when others can read them.
  static func checkCompanions(of path: String, warn: (String) -> Void) throws(StoreError) {
    for companion in [path + "-wal", path + "-shm"] {
      let fd = open(companion, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      if fd < 0 {
        if errno == ENOENT { continue }
        if errno == ELOOP { throw refusal(companion, "is a symbolic link") }
        throw StoreError(kind: .cannotOpen, message: "cannot read \(companion): \(reason())")
      }
      defer { close(fd) }
      try check(fd, companion)
      try tighten(fd, companion, adopted: false, warn: warn)
    }
  }

  /// The check the store's signal file (`SignalFile`) is opened with, as a companion: held to the
  /// same rules, since whoever could write it could hold the store's locks and fake its rings.
  static func vet(warn: @escaping @Sendable (String) -> Void) -> SignalFile.Vet {
    { fd, path in
      try check(fd, path)
      try tighten(fd, path, adopted: false, warn: warn)
    }
  }

  /// Refuses to make a new store beside a `-wal` that holds frames: they are another store's (the
  /// one whose name this was, moved or deleted while a server had it open), and SQLite would read
  /// them as this one's.
  static func refuseOrphanedLog(of path: String) throws(StoreError) {
    var info = stat()
    guard stat(path + "-wal", &info) == 0, info.st_size > 0 else { return }
    throw StoreError(
      kind: .cannotOpen,
      message: "refusing the store: \(path) is new or empty but \(path)-wal holds changes of another store "
        + "(it was moved or deleted while a server had it open); move that store back to \(path), "
        + "or move \(path)-wal and \(path)-shm away, and start again")
  }

  static func refusal(_ what: String, _ why: String) -> StoreError {
    StoreError(
      kind: .cannotOpen,
      message: "refusing the store: \(what) \(why); the inbox and its backend settings must be yours alone; "
        + remedy)
  }

  private static func status(_ fd: Int32, _ path: String) throws(StoreError) -> stat {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw StoreError(kind: .cannotOpen, message: "cannot read \(path): \(reason())")
    }
    return info
  }

  private static func reason() -> String { String(cString: strerror(errno)) }

  private static func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }
}
