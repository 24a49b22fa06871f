#if canImport(Glibc)
  import Glibc
#endif

/// What the file at a store path is, told from its first bytes before SQLite opens it, so a file that
/// is not an inbox store is refused without a byte of it (or its journal mode) changing.
enum StoreHeader {
  enum Kind: Equatable {
    /// Zero bytes: a store about to be created (by this process or one racing it).
    case empty
    /// An SQLite database; its schema, read before anything is written, says whether it is a store.
    case database
  }

  /// Reads the 100-byte SQLite header: refuses a file that is not SQLite, a rollback-journal database
  /// with a journal beside it (a store is always in WAL mode; merely reading that one would roll its
  /// journal back into it), and a file shorter than its header says — unless a write-ahead log lies
  /// beside it: a process killed in the middle of a checkpoint can leave page 1 written before the
  /// pages past the end, which the log still holds and SQLite's recovery writes again.
  static func kind(of path: String) throws(StoreError) -> Kind {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw StoreError(kind: .cannotOpen, message: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    return try kind(of: fd, path: path)
  }

  /// `kind(of:)` read from the open descriptor of the file at `path`.
  static func kind(of fd: Int32, path: String) throws(StoreError) -> Kind {
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
    if count == 0 { return .empty }
    guard count == 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
      throw StoreError(kind: .corrupt, message: "\(path) is not an SQLite database")
    }
    // Bytes 18 and 19: the file format versions, 2 in WAL mode.
    var journal = stat()
    if header[18] != 2, stat(path + "-journal", &journal) == 0 {
      throw StoreError(kind: .corrupt, message: "\(path) is an SQLite database with a hot journal, not an inbox store")
    }
    var info = stat()
    if !hasWriteAheadLog(path), fstat(fd, &info) == 0, Int64(info.st_size) < declaredSize(header) {
      throw StoreError(kind: .corrupt, message: "\(path) is truncated: shorter than its header says")
    }
    return .database
  }

  /// The size the header gives (page size × page count), 0 when the count is not to be trusted (the
  /// change counter and the version-valid-for number differ, as after an old program's write).
  private static func declaredSize(_ header: [UInt8]) -> Int64 {
    func number(_ offset: Int, _ count: Int) -> Int64 {
      header[offset..<offset + count].reduce(0) { $0 << 8 | Int64($1) }
    }
    guard number(24, 4) == number(92, 4) else { return 0 }
    let pageSize = number(16, 2) == 1 ? 65_536 : number(16, 2)
    return pageSize * number(28, 4)
  }

  /// True when a write-ahead log lies beside the store: SQLite removes it when the last connection
  /// closes cleanly, so it is there after a crash or `kill -9` (or while another process has the store).
  static func hasWriteAheadLog(_ path: String) -> Bool {
    var info = stat()
    return stat(path + "-wal", &info) == 0
  }
}
