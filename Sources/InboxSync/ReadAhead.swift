import Dispatch
import InboxCore
import Posix

/// The listed messages of a reply, read a batch ahead of the merge: while the merge writes one
/// batch on the writer's connection, the next is read (parsed, its text dumped, ingested by the
/// engine) on a second core. Reading is 40 % of a merge's work and writing the rest; one after
/// the other on one core, a 10k sync took twice the time. Two batches are held at most, so memory
/// stays that of the reply plus two batches of messages.
final class ReadAhead: @unchecked Sendable {
  // Unchecked: `reader` and `next` are touched by one side of `beside` at a time, and
  // `concurrentPerform` orders each batch's read before the next call returns.
  typealias Read = (message: InboxMessage, payload: String)

  /// Items read per batch; the merge asks `isCancelled` between batches.
  static let batchSize = RemoteInbox.Reader.itemsPerCheck

  private var reader: RemoteInbox.Reader
  private let count: Int
  private var next = 0

  init(_ items: RemoteInbox.Items, now: Int64, limit: MessageSizeLimit) {
    reader = RemoteInbox.Reader(items, now: now, limit: limit)
    count = items.count
  }

  /// Ids of listed messages that could not be read, once every batch has been read.
  var unreadableIDs: Set<String> { reader.unreadableIDs }
  /// What reading skipped, in the list's order.
  var warnings: [Warning] { reader.warnings }

  /// The next batch's readable messages, in order; empty once the list is read.
  func batch() throws(SyncError) -> [Read] {
    var batch: [Read] = []
    let end = min(count, next + Self.batchSize)
    batch.reserveCapacity(end - next)
    while next < end {
      if let read = try reader.read(next) { batch.append(read) }
      next += 1
    }
    return batch
  }

  /// Whether batches remain to be read.
  var hasMore: Bool { next < count }

  /// Runs `write` and reads the next batch side by side (one after the other on a machine of one
  /// core); `write`'s error wins over the read's.
  func beside(_ write: @escaping () throws -> Void) throws -> [Read] {
    guard Threads.cores > 1, hasMore else {
      try write()
      return try batch()
    }
    let write = Handoff(write)
    let wrote = Handoff<Result<Void, any Error>>(.success(()))
    let read = Handoff<Result<[Read], SyncError>>(.success([]))
    DispatchQueue.concurrentPerform(iterations: 2) { [self] side in
      if side == 0 {
        wrote.value = Result { try write.value() }
      } else {
        read.value = Result { () throws(SyncError) in try batch() }
      }
    }
    try wrote.value.get()
    return try read.value.get()
  }
}

/// A value one side of `ReadAhead.beside` alone touches until the sides join.
private final class Handoff<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
