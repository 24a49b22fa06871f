import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// The store file on disk: its default location, and opening it with owner-only permissions.
public enum StoreFile {
  /// `$XDG_DATA_HOME/inbox-rpc/inbox.sqlite`, or `~/.local/share/inbox-rpc/inbox.sqlite`.
  public static func defaultPath(environment: Environment) -> String {
    let base: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      base = xdg
    } else {
      base = (environment["HOME"] ?? "/tmp") + "/.local/share"
    }
    return base + "/inbox-rpc/inbox.sqlite"
  }

  /// Creates the directory (0700) when missing and opens the store file, created empty with mode 0600
  /// when missing, without following a symbolic link; refuses a place that is not the user's alone
  /// (`StoreTrust`). The caller closes the descriptor.
  static func prepare(_ path: String) throws(StoreError) -> Int32 {
    let directory = Files.directory(of: path)
    do {
      try Files.createDirectories(directory, mode: 0o700)
    } catch {
      throw StoreError(kind: .cannotOpen, message: error.message)
    }
    try StoreTrust.checkDirectory(directory)
    let fd = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      if errno == ELOOP { throw StoreTrust.refusal(path, "is a symbolic link") }
      let reason = String(cString: strerror(errno))
      throw StoreError(kind: .cannotOpen, message: "cannot open the store \(path) for writing: \(reason)")
    }
    do {
      try StoreTrust.check(fd, path)
    } catch {
      Glibc.close(fd)
      throw error
    }
    return fd
  }
}

/// Which file a path named when the store was opened (device and inode), to tell later that it was
/// deleted or replaced while open: SQLite would go on writing to the unlinked file, and every
/// change acknowledged after that would be lost with it.
struct FileIdentity: Equatable {
  let device: UInt64
  let inode: UInt64

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// True while `path` names this file.
  func isStill(_ path: String) -> Bool { FileIdentity(path: path) == self }

  /// The error every request meets once `path` no longer names this file.
  func gone(_ path: String) -> StoreError {
    StoreError(
      kind: .fileGone,
      message: "the store file \(path) was moved, deleted or replaced while open; no change is accepted any more "
        + "(the changes made until then are in the file, wherever it went)")
  }
}
