import InboxCore

/// A message read inside a write transaction, and the local status changes made to it there: a use
/// case that reads a message, decides, and changes it SELECTs the row once, and what it decided on
/// cannot change under it before the commit.
public struct MessageEdit {
  private let database: Database
  private let now: Int64
  /// The row as it stands, changes made so far included.
  public private(set) var row: StoredMessage

  init(database: Database, row: StoredMessage, now: Int64) {
    self.database = database
    self.row = row
    self.now = now
  }

  /// Marks the message read; false when it already was or is dismissed.
  public mutating func markRead() throws -> Bool {
    guard !row.isDismissed, !row.status.isRead else { return false }
    try raise(to: .read)
    row.readAt = row.readAt ?? now
    return true
  }

  /// A row tap: read, then action performed (opened); false when it already was opened or is dismissed.
  public mutating func markOpened() throws -> Bool {
    guard !row.isDismissed, !row.status.isActionPerformed else { return false }
    _ = try markRead()
    try raise(to: .opened)
    row.openedAt = row.openedAt ?? now
    return true
  }

  /// Dismisses the message for good; false when it already was.
  public mutating func dismiss() throws -> Bool {
    guard !row.isDismissed else { return false }
    try raise(to: .dismissed)
    row.dismissedAt = row.dismissedAt ?? now
    return true
  }

  private mutating func raise(to change: LocalChange) throws {
    try InboxStore.raise(database, row, to: change, now: now)
    row.status = max(row.status, change.status)
  }
}

extension InboxStore {
  /// Reads the message with this id (dismissed or not; nil when unknown) in one write transaction
  /// and lets `body` change it there; the changes have committed when this returns.
  public func editMessage<T>(id: String, now: Int64, _ body: (inout MessageEdit?) throws -> T) throws -> T {
    try write { database in
      var edit = try Self.row(database, id: id).map { MessageEdit(database: database, row: $0, now: now) }
      return try body(&edit)
    }
  }
}
