import Posix

extension TraceLog {
  /// A trace's entries pulled one at a time, for a reader that must stop between them (`replay`
  /// waits for the server's reply before it reads on). The file is read in chunks and only the
  /// line being read is held, so memory is bounded by the longest line, as for `TraceLog.read`,
  /// which is built on this.
  public struct Reader: ~Copyable {
    private var file: RegularFile
    /// The 1-based number of the last line read.
    private var number = 0

    /// A path that is not a regular file (a FIFO, a device) or cannot be opened throws.
    /// `chunkSize`: the bytes one read asks for.
    public init(path: String, chunkSize: Int = 64 * 1024) throws(SystemError) {
      file = try RegularFile(path: path, chunkSize: chunkSize)
    }

    /// The next record or gap (blank lines skipped); nil at the end of the file. A read that fails throws.
    public mutating func next() throws(SystemError) -> Entry? {
      while let text = try file.nextLine() {
        number += 1
        if let entry = TraceLog.entry(text, line: number) { return entry }
      }
      return nil
    }
  }
}
