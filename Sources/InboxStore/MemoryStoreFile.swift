import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Where a store opened as `:memory:` keeps its pages: a database file of its own, in a directory
/// only this user can enter, on a file system in memory when there is one (`$XDG_RUNTIME_DIR`,
/// then /dev/shm, else `$TMPDIR` or /tmp), removed when the store closes. A file rather than
/// SQLite's own `:memory:`, whose one connection would make a read wait for the write in progress:
/// in a file (WAL) reads have connections of their own beside the writer, as in a store on disk.
/// A process killed before it closed its store leaves the directory behind; the next in-memory
/// store this user opens there removes those whose process has gone.
struct MemoryStoreFile {
  /// Directories are named `inbox-rpc-memory.<pid>.<random>`.
  static let prefix = "inbox-rpc-memory."

  let directory: String
  /// The store file, open (`InboxStore.file`).
  let fd: Int32

  var path: String { directory + "/inbox.sqlite" }

  /// Makes the directory and the store file in it, holding `image` (an empty store's bytes; the
  /// migrations make the store when it is empty).
  static func make(image: UnsafeRawBufferPointer, environment: Environment = .process) throws(StoreError)
    -> MemoryStoreFile
  {
    let base = place(environment)
    removeLeftovers(in: base)
    let directory: String
    do {
      directory = try PrivateDirectory.make(in: base, prefix: prefix + "\(getpid()).")
    } catch {
      throw StoreError(kind: .cannotOpen, message: "cannot make an in-memory store: \(error.message)")
    }
    let path = directory + "/inbox.sqlite"
    let fd = FileName.withCString(path) { open($0, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
    guard fd >= 0, image.isEmpty || Files.writeAll(fd, walImage(image)) else {
      let reason = String(cString: strerror(errno))
      if fd >= 0 { close(fd) }
      PrivateDirectory.remove(directory)
      throw StoreError(kind: .cannotOpen, message: "cannot make an in-memory store in \(base): \(reason)")
    }
    return MemoryStoreFile(directory: directory, fd: fd)
  }

  /// `image` marked as a database in WAL mode (the file format's read and write versions, bytes 18
  /// and 19, are 2), as the switch to WAL would leave it: the switch, a transaction through a
  /// rollback journal with its syncs, then finds nothing to do.
  static func walImage(_ image: UnsafeRawBufferPointer) -> [UInt8] {
    var bytes = Array(image)
    if bytes.count >= 100 { (bytes[18], bytes[19]) = (2, 2) }
    return bytes
  }

  /// Removes the store's directory and its files (the store is closed).
  func remove() { PrivateDirectory.remove(directory) }

  /// The first of `$XDG_RUNTIME_DIR` (the user's own, in memory), /dev/shm, `$TMPDIR` this user
  /// may make a directory in; /tmp otherwise.
  static func place(_ environment: Environment) -> String {
    let candidates = [environment["XDG_RUNTIME_DIR"], "/dev/shm", environment["TMPDIR"]]
    for case let base? in candidates where base.hasPrefix("/") && Files.isDirectory(base) {
      if FileName.withCString(base, { access($0, W_OK | X_OK) }) == 0 { return base }
    }
    return "/tmp"
  }

  /// Removes the directories in `base` of this user's in-memory stores whose process has gone.
  static func removeLeftovers(in base: String) {
    for name in PrivateDirectory.entries(of: base, startingWith: prefix) {
      let fields = name.dropFirst(prefix.count).split(separator: ".")
      guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
      // EPERM: another user's process has that number; only one that no longer exists is gone.
      guard kill(pid, 0) != 0, errno == ESRCH else { continue }
      let directory = base + "/" + name
      var status = stat()
      guard FileName.withCString(directory, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
        status.st_uid == getuid()
      else { continue }
      PrivateDirectory.remove(directory)
    }
  }
}
