/// A store failure with everything needed to diagnose it: SQLite's extended code and message,
/// and the SQL that failed (values bound to it stay out, they may be a user's data).
public struct StoreError: Error, Sendable, CustomStringConvertible {
  /// What the host can do about it.
  public enum Kind: String, Sendable {
    /// The file is not an inbox store, or is damaged (`integrity_check` failed).
    case corrupt
    /// The file or its directory cannot be opened or written (permissions, read-only media).
    case cannotOpen
    /// Another process holds the store's write lock (a write waits for it as a callback, for
    /// `Patience.seconds` at most, then fails so), or another write of this process its writer.
    case busy
    /// The store was written by a newer version of this program.
    case tooNew
    /// The file behind the open store was deleted or replaced: a write would be lost with it.
    case fileGone
    /// A write was refused: the disk is full, or the file reached the size limit of the process
    /// (`ulimit -f`), or the disk failed the write.
    case full
    /// Any other SQLite error.
    case sqlite
  }

  public var kind: Kind
  public var code: Int32
  public var message: String
  public var sql: String?

  public init(kind: Kind, code: Int32 = 0, message: String, sql: String? = nil) {
    self.kind = kind
    self.code = code
    self.message = message
    self.sql = sql
  }

  public var description: String {
    var text = "\(kind.rawValue): \(message)"
    if code != 0 { text += " (SQLite code \(code))" }
    return text
  }
}
