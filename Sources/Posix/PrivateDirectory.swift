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

  /// Removes `directory` and the files in it (not directories within; it then stays).
  public static func remove(_ directory: String) {
    for name in entries(of: directory, startingWith: "") where name != "." && name != ".." {
      _ = FileName.withCString(directory + "/" + name) { unlink($0) }
    }
    _ = FileName.withCString(directory) { rmdir($0) }
  }

  /// The names of the entries of `directory` that start with `prefix` (none when it cannot be read).
  public static func entries(of directory: String, startingWith prefix: String) -> [String] {
    guard let handle = FileName.withCString(directory, { opendir($0) }) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { FileName.decode($0.prefix { $0 != 0 }) }
      if name.hasPrefix(prefix) { names.append(name) }
    }
    return names
  }
}
