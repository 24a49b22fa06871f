import InboxCore
import JSON
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The persistent inbox: messages with their local state, the outbox of unconfirmed status
/// changes, and settings, in one SQLite file (WAL).
///
/// Two connections: writes run on one, under one lock, each committed before the method returns, so
/// a reply written after it reports a change that is already durable (SPEC.md §6); reads run on the
/// other, under a lock of their own, so a write waiting for another process's lock (up to the busy
/// timeout, 5 s, then `StoreError.Kind.busy`) never holds up a read.
public final class InboxStore: @unchecked Sendable {
  /// Where and how to open the store.
  public struct Options: Sendable {
    public var path: String
    public var durability: StoreDurability = .normal
    /// A full `integrity_check` at open, before anything is served.
    public var fullCheck = false
    /// Told what opening changed that the user should know (a store others could read, made 0600).
    public var warn: @Sendable (String) -> Void = { _ in }

    public init(path: String) { self.path = path }
  }

  /// A random id made when the store is created: cursors carry it, so one store's cursor is
  /// refused by another.
  public let storeID: String
  public let path: String

  // `writeLock` guards `writer`, `readLock` guards `reader` (the same connection in memory).
  private let writeLock = StoreLock()
  private let readLock: StoreLock
  private let writer: Database
  private let reader: Database
  private let health = StoreHealth()
  private let lockWait = LockWait()
  /// The thread whose writes give up at once rather than wait (`withoutWaiting`), 0 for none.
  private let impatientThread = Atomic<UInt>(0)
  private let identity: FileIdentity?
  private var checker: Database?

  private init(writer: Database, reader: Database?, path: String, storeID: String) {
    self.writer = writer
    self.reader = reader ?? writer
    readLock = reader == nil ? writeLock : StoreLock()
    self.path = path
    self.storeID = storeID
    identity = reader == nil ? nil : FileIdentity(path: path)
    lockWait.install(on: writer.handle)
  }

  /// Runs `body` with its writes giving up at once (`StoreError.Kind.busy`, see `isWouldWait`) where
  /// they would wait: for another process's lock, another write of this process, or a running check.
  public func withoutWaiting<T>(_ body: () throws -> T) rethrows -> T {
    impatientThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    defer { impatientThread.store(0, ordering: .sequentiallyConsistent) }
    return try body()
  }

  /// True while a write waits for another process to release the store (see `Method.Execution.serial`).
  public var isWaitingForLock: Bool { lockWait.isWaiting }

  /// Opens (creating if needed, mode 0600) and migrates the store to the latest schema. A store
  /// that is not the user's alone is refused (`StoreTrust`), one others can read is made 0600.
  ///
  /// Nothing is written before the file is known to be an inbox store or new and empty. Opening
  /// costs the same whatever the store's size: a store its last process closed cleanly is not
  /// checked (damage met later fails that call and every later one); after an unclean end (a
  /// write-ahead log left beside it) `quick_check` runs in the background, from 250 ms after the
  /// start or as soon as a write waits for its verdict.
  public static func open(_ options: Options) throws(StoreError) -> InboxStore {
    let path = options.path
    let inMemory = path == ":memory:"
    var unclean = false
    var existing = false
    if !inMemory {
      let fd = try StoreFile.prepare(path)
      defer { Glibc.close(fd) }
      unclean = StoreHeader.hasWriteAheadLog(path)
      let kind = try StoreHeader.kind(of: fd, path: path)
      existing = kind == .database
      try StoreTrust.tighten(fd, path, adopted: kind == .empty, warn: options.warn)
      try StoreTrust.checkCompanions(of: path, warn: options.warn)
    }
    let writer = try Database(path: path)
    var reader: Database?
    do {
      if existing { try Migrator.identify(writer) }
      try writer.configure(durability: options.durability, inMemory: inMemory)
      if options.fullCheck, let problem = try IntegrityCheck.run(writer, full: true) { throw problem }
      try Migrator.migrate(writer)
      let storeID = try Settings.storeID(writer)
      if !inMemory {
        reader = try Database(path: path)
        try reader?.configure(durability: options.durability)
      }
      let store = InboxStore(writer: writer, reader: reader, path: path, storeID: storeID)
      if unclean && !options.fullCheck {
        store.checker = try IntegrityCheck.startInBackground(path: path, health: store.health)
      }
      return store
    } catch {
      try? reader?.close()
      try? writer.close()
      if let error = error as? StoreError { throw error }
      throw StoreError(kind: .sqlite, message: "\(error)")
    }
  }

  /// Closes the store; it must not be used afterwards. A background check still running is stopped,
  /// and the write-ahead log is then kept, so the next open runs the check again.
  public func close() throws(StoreError) {
    health.cancelCheck()
    checker?.interrupt()
    let checked = health.waitForCheck()
    try checker?.close()
    checker = nil
    if reader !== writer {
      readLock.lock()
      defer { readLock.unlock() }
      try reader.close()
    }
    writeLock.lock()
    defer { writeLock.unlock() }
    if !checked { writer.keepWriteAheadLogOnClose() }
    try writer.close()
  }

  // MARK: - Confinement

  /// A write that gives up at once (`StoreError.Kind.busy`) rather than wait: for another process's
  /// lock, for a write of this process, or for the check of an unclean start.
  func writeWithoutWaiting<T>(_ body: (Database) throws -> T) throws -> T {
    let busy = StoreError.wouldWait
    guard !health.isChecking else { throw busy }
    try health.ensureReadable()
    guard writeLock.tryLock() else { throw busy }
    do {
      return try lockWait.withoutWaiting { try committing(body) }
    } catch let error as StoreError where error.kind == .busy {
      throw busy  // SQLite's own "database is locked": another process holds the store
    }
  }

  /// Runs a read on the reading connection, under its lock.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try health.ensureReadable()
    readLock.lock()
    defer { readLock.unlock() }
    do {
      return try body(reader)
    } catch {
      health.record(error)
      throw error
    }
  }

  /// Runs `body` on each connection, under its lock (statement tracing).
  func eachConnection(_ body: (Database) -> Void) {
    readLock.withLock { body(reader) }
    if reader !== writer { writeLock.withLock { body(writer) } }
  }

  /// Runs a change in one IMMEDIATE transaction on the writing connection; it has committed when this
  /// returns. Refused once the store is damaged or its file gone; waits for a running check.
  @discardableResult
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    if impatientThread.load(ordering: .sequentiallyConsistent) == UInt(pthread_self()) {
      return try writeWithoutWaiting(body)
    }
    try health.ensureWritable()
    writeLock.lock()
    return try committing(body)
  }

  /// Runs `body` in one IMMEDIATE transaction; called with `writeLock` held, and releases it.
  private func committing<T>(_ body: (Database) throws -> T) throws -> T {
    defer {
      lockWait.done()
      writeLock.unlock()
    }
    do {
      try identity?.verify(path)
      return try writer.transaction {
        let result = try body(writer)
        try writer.flushTally()
        return result
      }
    } catch {
      writer.countChanges = FeedCounts()
      health.record(error)
      throw error
    }
  }
}
