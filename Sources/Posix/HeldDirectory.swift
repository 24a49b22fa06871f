#if canImport(Glibc)
  import Glibc
#endif

/// A directory of this user's held by descriptor from its making (or finding) to its removal: each
/// name in it, and its own name in its parent, is looked up relative to a descriptor (`openat`,
/// `fstatat`, `unlinkat`, never following a symbolic link), never through a path again. So a
/// directory another user renamed, or replaced by a link to someone else's, is not followed: what
/// is removed is what was made.
public struct HeldDirectory: Sendable {
  /// The parent's descriptor (a duplicate of its own) and the directory's name in it.
  private let parent: Int32
  public let name: String
  /// The directory's own descriptor.
  public let fd: Int32
  /// Its path as made, for what opens by path (SQLite) and for messages.
  public let path: String
  private let device: dev_t
  private let inode: ino_t

  /// Makes `prefix` followed by random hex digits in the directory open as `parent` (at
  /// `parentPath`), mode 0700, created or refused (never an existing one adopted).
  public static func make(in parent: Int32, at parentPath: String, prefix: String) throws(SystemError)
    -> HeldDirectory
  {
    for _ in 0..<100 {
      let name = prefix + randomHex(bytes: 6)
      guard mkdirat(parent, name, 0o700) == 0 else {
        if errno == EEXIST { continue }
        throw SystemError.current("cannot make a directory in \(parentPath)")
      }
      guard let held = open(name, in: parent, at: parentPath) else {
        throw SystemError.current("cannot open the directory made in \(parentPath)")
      }
      return held
    }
    throw SystemError(code: EEXIST, message: "cannot make a directory in \(parentPath): every name tried was taken")
  }

  /// Opens `name` in `parent` when it is a directory (not a link to one) this user owns; nil else.
  public static func open(_ name: String, in parent: Int32, at parentPath: String) -> HeldDirectory? {
    let fd = FileName.withCString(name) { openat(parent, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    guard fd >= 0 else { return nil }
    var info = stat()
    let parentCopy = fcntl(parent, F_DUPFD_CLOEXEC, 0)
    guard fstat(fd, &info) == 0, info.st_uid == geteuid(), parentCopy >= 0 else {
      close(fd)
      if parentCopy >= 0 { close(parentCopy) }
      return nil
    }
    return HeldDirectory(
      parent: parentCopy, name: name, fd: fd, path: parentPath + "/" + name, device: info.st_dev,
      inode: info.st_ino)
  }

  /// Makes the file `name` in the directory (0600 by default, created or refused, no link followed)
  /// and returns its descriptor, or -1 with `errno` set.
  public func createFile(_ name: String, mode: mode_t = 0o600) -> Int32 {
    FileName.withCString(name) { openat(fd, $0, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
  }

  /// True while the name in the parent still names this directory.
  public var isInPlace: Bool {
    var named = stat()
    guard FileName.withCString(name, { fstatat(parent, $0, &named, AT_SYMLINK_NOFOLLOW) }) == 0 else { return false }
    return named.st_dev == device && named.st_ino == inode
  }

  /// Removes the files in the directory (not directories within: it then stays), then the
  /// directory, when its name still names it; the descriptors are closed. False when the name is
  /// gone or names another file now: that name is left alone (the files removed were this
  /// directory's own, wherever it went).
  @discardableResult
  public func remove() -> Bool {
    defer {
      close(fd)
      close(parent)
    }
    for entry in PrivateDirectory.entries(ofDescriptor: fd, startingWith: "") where entry != "." && entry != ".." {
      _ = FileName.withCString(entry) { unlinkat(fd, $0, 0) }
    }
    guard isInPlace else { return false }
    return FileName.withCString(name) { unlinkat(parent, $0, AT_REMOVEDIR) } == 0
  }
}
