#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory only this user can enter, made under a name no one could have guessed beforehand
/// (`mkdtemp`: mode 0700, created or refused, never an existing one adopted), and removed whole.
public enum PrivateDirectory {
  /// Makes `base/prefixXXXXXX` and returns its path.
  public static func make(in base: String, prefix: String) throws(SystemError) -> String {
    var bytes = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    guard mkdtemp(&bytes) != nil else { throw SystemError.current("cannot make a directory in \(base)") }
    return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Removes `directory` and the files in it (not directories within; it then stays), through
  /// descriptors (`HeldDirectory`): a link in its place is not followed.
  public static func remove(_ directory: String) {
    let parentPath = Files.directory(of: directory)
    let parent = FileName.withCString(parentPath.isEmpty ? "." : parentPath) {
      open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    guard parent >= 0 else { return }
    defer { close(parent) }
    let name = String(directory.split(separator: "/").last ?? "")
    HeldDirectory.open(name, in: parent, at: parentPath)?.remove()
  }

  /// The names of the entries of `directory` that start with `prefix` (none when it cannot be read).
  public static func entries(of directory: String, startingWith prefix: String) -> [String] {
    let fd = FileName.withCString(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    return entries(ofDescriptor: fd, startingWith: prefix)
  }

  /// The names of the entries of the directory open as `fd` that start with `prefix`; `fd` stays
  /// open (a duplicate is read).
  public static func entries(ofDescriptor fd: Int32, startingWith prefix: String) -> [String] {
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else { return [] }
    guard let handle = fdopendir(copy) else {
      close(copy)
      return []
    }
    defer { closedir(handle) }
    rewinddir(handle)  // a duplicate shares the offset of the descriptor it copies
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { FileName.decode($0.prefix { $0 != 0 }) }
      if name.hasPrefix(prefix) { names.append(name) }
    }
    return names
  }
}
