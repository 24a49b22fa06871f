#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Files {
  /// True when `path` is a directory (following symbolic links).
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return FileName.withCString(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The files under `directory` whose names end with `suffix`, at any depth, as paths starting
  /// with `directory`, sorted so a run lists them the same way on every machine. Hidden entries
  /// (`.git`, ...) are skipped, and a directory reached again through a link is not walked twice.
  public static func files(under directory: String, endingWith suffix: String) throws(SystemError) -> [String] {
    var seen: Set<[UInt64]> = []
    var found: [String] = []
    try walk(directory, suffix, &seen, &found)
    return found.sorted()
  }

  private static func walk(_ directory: String, _ suffix: String, _ seen: inout Set<[UInt64]>, _ found: inout [String])
    throws(SystemError)
  {
    var status = stat()
    guard FileName.withCString(directory, { stat($0, &status) }) == 0 else {
      throw SystemError.current("cannot read \(directory)")
    }
    guard seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { return }
    guard let handle = FileName.withCString(directory, { opendir($0) }) else {
      throw SystemError.current("cannot read the directory \(directory)")
    }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { FileName.decode($0.prefix { $0 != 0 }) }
      if !name.hasPrefix(".") { names.append(name) }
    }
    closedir(handle)
    let base = directory.hasSuffix("/") ? directory : directory + "/"
    for name in names {
      let path = base + name
      if isDirectory(path) {
        try walk(path, suffix, &seen, &found)
      } else if name.hasSuffix(suffix) {
        found.append(path)
      }
    }
  }
}
