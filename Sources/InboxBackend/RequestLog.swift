import JSON
import Posix
import Synchronization

/// Every request the double receives, one JSON line each, written whole and at once so a reader
/// following the file never sees half a line, and before the reply leaves: a test that has its
/// reply finds the request's line. The connections' threads take turns at the write for that.
public final class RequestLog: Sendable {
  private let fd: Mutex<Int32>

  /// Writes to `fd` (stdout, or a file opened for the log).
  public init(fd: Int32) { self.fd = Mutex(fd) }

  public func write(_ record: JSONValue) {
    let line = record.serialized(terminatedBy: UInt8(ascii: "\n"))
    fd.withLock { _ = Files.writeAll($0, line) }
  }
}
