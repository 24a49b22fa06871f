import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Where a store opened as `:memory:` keeps its pages: a database file of its own, in a directory
/// only this user can enter, on a file system in memory when there is one (`$XDG_RUNTIME_DIR`,
/// then /dev/shm, else `$TMPDIR` or /tmp), removed when the store closes. A file rather than
/// SQLite's own `:memory:`, whose one connection would make a read wait for the write in progress:
/// in a file (WAL) reads have connections of their own beside the writer, as in a store on disk.
///
/// Its parent must be one only this user and root can change names in, or a sticky one (the rule
/// a store's own directory is held to, `StoreTrust.directoryProblem`): in any other, another user
/// could rename the directory away (the store's reads, which open it by path, would then fail) or
/// put a link in its place. The directory is made, emptied and removed through descriptors
/// (`HeldDirectory`), so a link put in its place is never followed. A process killed before it
/// closed its store leaves the directory behind; the next in-memory store this user opens there
/// removes those whose process has gone.
struct MemoryStoreFile: Sendable {
  /// Directories are named `inbox-rpc-memory.<pid>.<random>`.
  static let prefix = "inbox-rpc-memory."

  let directory: HeldDirectory
  /// The store file, open (`InboxStore.file`).
  let fd: Int32
  /// Told when the directory could not be removed as made.
  let warn: @Sendable (String) -> Void

  var path: String { directory.path + "/inbox.sqlite" }

  /// Makes the directory and the store file in it, holding `image` (an empty store's bytes; the
  /// migrations make the store when it is empty).
  static func make(
    image: UnsafeRawBufferPointer, environment: Environment = .process,
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(StoreError) -> MemoryStoreFile {
    let base = try place(candidates(environment), warn: warn)
    defer { close(base.fd) }
    removeLeftovers(in: base.fd, at: base.path)
    let directory: HeldDirectory
    do {
      directory = try HeldDirectory.make(in: base.fd, at: base.path, prefix: prefix + "\(getpid()).")
    } catch {
      throw StoreError(kind: .cannotOpen, message: "cannot make an in-memory store: \(error.message)")
    }
    let fd = directory.createFile("inbox.sqlite")
    guard fd >= 0, image.isEmpty || Files.writeAll(fd, walImage(image)) else {
      let reason = String(cString: strerror(errno))
      if fd >= 0 { close(fd) }
      directory.remove()
      throw StoreError(kind: .cannotOpen, message: "cannot make an in-memory store in \(base.path): \(reason)")
    }
    return MemoryStoreFile(directory: directory, fd: fd, warn: warn)
  }

  /// `image` marked as a database in WAL mode (the file format's read and write versions, bytes 18
  /// and 19, are 2), as the switch to WAL would leave it: the switch, a transaction through a
  /// rollback journal with its syncs, then finds nothing to do.
  static func walImage(_ image: UnsafeRawBufferPointer) -> [UInt8] {
    var bytes = Array(image)
    if bytes.count >= 100 { (bytes[18], bytes[19]) = (2, 2) }
    return bytes
  }

  /// Removes the store's files and directory (the store is closed). A directory whose name no
  /// longer names it (moved away, or something else put there) keeps that name, with a warning.
  func remove() {
    guard !directory.remove() else { return }
    warn(
      "the in-memory store's directory \(directory.path) was moved or replaced while the server ran; "
        + "its files are removed, and what that name now names is left alone")
  }

  /// Where an in-memory store may be made, in order: `$XDG_RUNTIME_DIR` (the user's own, in
  /// memory), /dev/shm, `$TMPDIR`, /tmp (relative paths are ignored).
  static func candidates(_ environment: Environment) -> [String] {
    [environment["XDG_RUNTIME_DIR"], "/dev/shm", environment["TMPDIR"], "/tmp"].compactMap { $0 }
      .filter { $0.hasPrefix("/") }
  }

  /// The first of `candidates` that is a directory this user may make one in and that others cannot
  /// change names in (`StoreTrust.directoryProblem`), open (its descriptor is the caller's to
  /// close). One skipped for the rule is named in a warning; when none is left the store is
  /// refused, with the reasons.
  static func place(_ candidates: [String], warn: (String) -> Void) throws(StoreError) -> (fd: Int32, path: String) {
    var refused: [String] = []
    for base in candidates {
      let fd = FileName.withCString(base) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
      guard fd >= 0 else { continue }
      var info = stat()
      guard fstat(fd, &info) == 0, faccessat(fd, ".", W_OK | X_OK, 0) == 0 else {
        close(fd)
        continue
      }
      if let problem = StoreTrust.directoryProblem(info) {
        refused.append("\(base) \(problem)")
        close(fd)
        continue
      }
      if !refused.isEmpty {
        warn("the in-memory store is made in \(base), not in \(refused.joined(separator: ", nor in "))")
      }
      return (fd, base)
    }
    let why =
      refused.isEmpty ? "none of \(candidates.joined(separator: ", ")) can be written" : refused.joined(separator: "; ")
    throw StoreError(
      kind: .cannotOpen,
      message: "refusing to make an in-memory store: \(why); another user could rename its directory or "
        + "put a link in its place; set XDG_RUNTIME_DIR to a directory of your own and start again")
  }

  /// Removes the directories in the directory open as `parent` (at `path`) of this user's in-memory
  /// stores whose process has gone: each opened without following a link and owned by this user
  /// (`HeldDirectory.open`), then emptied and removed through that descriptor.
  static func removeLeftovers(in parent: Int32, at path: String) {
    for name in PrivateDirectory.entries(ofDescriptor: parent, startingWith: prefix) {
      let fields = name.dropFirst(prefix.count).split(separator: ".")
      guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
      // EPERM: another user's process has that number; only one that no longer exists is gone.
      guard kill(pid, 0) != 0, errno == ESRCH else { continue }
      HeldDirectory.open(name, in: parent, at: path)?.remove()
    }
  }
}
