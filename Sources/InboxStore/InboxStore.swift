import Dispatch
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
/// Two connections: writes run on one, owned by the store's one writer (`StoreWriter`), each
/// committed before the method returns, so a reply written after it reports a change that is
/// already durable (docs/engine.md#local-state); reads run on reading connections of their own
/// (`ReaderPool`), so a write never holds up a read. A store opened as `:memory:` is a file of its
/// own too (`MemoryStoreFile`), so the same holds there.
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
  /// Every setting as the store held it when it opened, with this store's own writes to them since,
  /// until it opens its reading connection (`settingAtStart`); nil after, or when it could not be
  /// read at the open.
  let settingsAtOpen: Mutex<[String: JSONValue]?>
  /// Where the change log stood when the store opened (nil when it could not be read then):
  /// `changes(after:)` from it reports every commit other processes made since.
  public let changeLogTailAtOpen: Int64?
  /// The path the store was opened by (`:memory:` for one in memory).
  public let path: String
  /// The file the connections open: `path`, or an in-memory store's own (`memory`).
  private let filePath: String
  /// An in-memory store's file, removed at close.
  private let memory: MemoryStoreFile?
  /// The directory of an in-memory store's file.
  var memoryDirectory: String? { memory?.directory.path }
  /// This open store's random number, stamped on the change-log rows its writes add (`ChangeLog`).
  public let changeOrigin: Int64
  /// Rung after every commit made while other processes have the store open, so they read what
  /// changed (nil in memory).
  public let signals: SignalFile?
  /// On while the transaction in progress has other processes to tell (`ChangeLog`).
  private let followed: SQLFlag
  /// Whether the change log's triggers are there (`ChangeLog.setTriggers`), and what a transaction
  /// that changed them makes it once it commits; both only touched by the writer's holder.
  private var triggersInstalled = false
  private var triggersAfterCommit: Bool?
  /// Set, by the writer's holder, once the file was found moved and its log checkpointed.
  private var fileAbandoned = false
  /// Set, by the writer's holder, when a write of the write job holding it committed.
  var committedInJob = false

  /// Owns the writing connection.
  let writer: StoreWriter
  /// The reading connections, the first opened at the first read (`openReader`): a connection's
  /// first statement parses the whole schema, an eighth of a start's instructions, which a server
  /// that answers a ping or a write and exits need not pay.
  private let readers = ReaderPool()
  /// Writes waiting for the store's write lock, each a callback (`attemptWrite`'s `.busy`): rung when
  /// another process commits (by the caller that follows the store), and when this process's
  /// writer is free again after it refused one.
  public let lockWaits = StoreLockWaits()
  private let durability: StoreDurability
  let health = StoreHealth()
  private let identity: FileIdentity?
  private var checker: Database?
  /// Watches the store file for a rename or deletion (`watchFile`): nil until the watch is made,
  /// and `closed` makes no more.
  private let fileWatcher = Mutex<(watcher: FileWatcher?, closed: Bool)>((nil, false))
  private let fileQueue = DispatchQueue(label: "inbox-rpc.store-file")
  /// The store file as the open checked it, kept open until the connections close. SQLite holds a
  /// shared lock on the file while a connection has it open in WAL mode, which tells another
  /// process's last connection, as it closes, that it is not the last, so it leaves the
  /// write-ahead log in place; POSIX locks belong to the process, and closing any descriptor of
  /// the file drops them all. Closed early, another SQLite client's close (the `sqlite3` shell, a
  /// backup script) deleted the log under the running server, whose later commits then went to the
  /// deleted file, unseen by every other process until it exited.
  private let file: Int32

  private init(
    file: Int32, memory: MemoryStoreFile?, writer: Database, durability: StoreDurability, path: String,
    storeID: String, origin: Int64, signals: SignalFile?, followed: SQLFlag, settings: [String: JSONValue]?,
    changeLogTail: Int64?
  ) {
    self.file = file
    self.memory = memory
    settingsAtOpen = Mutex(settings)
    changeLogTailAtOpen = changeLogTail
    self.followed = followed
    // A write refused while another held the writer may go once it is let go.
    self.writer = StoreWriter(database: writer) { [lockWaits] in lockWaits.ring() }
    changeOrigin = origin
    self.signals = signals
    self.durability = durability
    self.path = path
    filePath = memory?.path ?? path
    self.storeID = storeID
    identity = FileIdentity(path: filePath)
    // A write refused while an unclean start's check ran may go once it ends.
    health.whenCheckEnds { [lockWaits] in lockWaits.ring() }
  }

  /// How long an open waits for another process opening the same store (it holds the signal
  /// file's opening lock; one stopped there would hold it for ever).
  static let openingWaitSeconds = 10.0

  /// The store's signal file (`SignalFile`), held to the store's own rules (`StoreTrust.vet`).
  static func openSignals(_ path: String, warn: @escaping @Sendable (String) -> Void) throws(StoreError)
    -> SignalFile
  {
    do {
      return try SignalFile(path: path + "-signal", vet: StoreTrust.vet(warn: warn))
    } catch let error as StoreError {
      throw error
    } catch let error as SystemError where error.code == ELOOP {
      throw StoreTrust.refusal(path + "-signal", "is a symbolic link")
    } catch let error as SystemError where error.code == EISDIR {
      throw StoreTrust.refusal(path + "-signal", "is not a regular file")
    } catch {
      throw StoreError(kind: .cannotOpen, message: "\(error)")
    }
  }

  /// Opens the store in `file` (`memory`'s, for one in memory, which needs no checking: this
  /// process has just made it).
  static func connect(_ options: Options, file fd: Int32, memory: MemoryStoreFile? = nil, signals: SignalFile?)
    throws(StoreError) -> InboxStore
  {
    let path = memory?.path ?? options.path
    var unclean = false
    var existing = memory != nil && !EmptyStore.image.isEmpty
    if memory == nil {
      unclean = StoreHeader.hasWriteAheadLog(path)
      let kind = try StoreHeader.kind(of: fd, path: path)
      existing = kind == .database
      if kind == .empty { try StoreTrust.refuseOrphanedLog(of: path) }
      try StoreTrust.tighten(fd, path, adopted: kind == .empty, warn: options.warn)
      try StoreTrust.checkCompanions(of: path, warn: options.warn)
    }
    let writer = try Database(path: path)
    do {
      // Before `configure`, which writes to the file: a foreign one must be refused untouched.
      let version = existing ? try Migrator.identify(writer) : nil
      try writer.configure(durability: options.durability, throwaway: memory != nil)
      if options.fullCheck, let problem = try IntegrityCheck.run(writer, full: true) { throw problem }
      try Migrator.migrate(writer, known: version)
      let storeID = try Settings.storeID(writer)
      let origin = Int64.random(in: 1...Int64.max)
      let followed = SQLFlag()
      try ChangeLog.install(writer, followed: followed)
      // What a start reads (the change log's tail, the settings) is read here, with the schema the
      // writer has parsed, so a start opens no reading connection for it. Present since the signal
      // file opened; an IMMEDIATE transaction waits out any write begun before, which could not
      // know it is followed, so the tail read after it is past that write (`ChangeLog`).
      // A damaged page is not met here but at the first request that reads it (the store is then
      // refused with `corrupt`, as it would be without this read), so either may be missing.
      let opening = { () -> (tail: Int64?, settings: [String: JSONValue]?) in
        (try? ChangeLog.tail(writer), try? Settings.all(writer))
      }
      if memory == nil { try writer.transaction {} }
      let (tail, settings) = opening()
      let store = InboxStore(
        file: fd, memory: memory, writer: writer, durability: options.durability, path: options.path,
        storeID: storeID, origin: origin, signals: signals, followed: followed, settings: settings,
        changeLogTail: tail)
      if unclean && !options.fullCheck {
        store.checker = try IntegrityCheck.startInBackground(path: path, health: store.health)
      }
      if memory == nil { store.watchFile() }
      return store
    } catch {
      try? writer.close()
      if let error = error as? StoreError { throw error }
      throw StoreError(kind: .sqlite, message: "\(error)")
    }
  }

  /// Closes the store; it must not be used afterwards. A background check still running is stopped,
  /// and the write-ahead log is then kept, so the next open runs the check again. A write still in
  /// progress (one the drain at exit stopped waiting for) closes the writing connection and the file
  /// as it ends, and its close's failure goes unreported.
  public func close() throws(StoreError) {
    fileWatcher.withLock {
      $0.closed = true
      $0.watcher?.cancel()
    }
    fileQueue.sync {}
    // A rename made before the watch began, or while its event is still queued, is met here.
    fileMoved()
    health.cancelCheck()
    checker?.interrupt()
    let checked = health.waitForCheck()
    try checker?.close()
    checker = nil
    try readers.close()
    let failure = Mutex<StoreError?>(nil)
    writer.whenFree { [file, signals, memory] database in
      if !checked { database.keepWriteAheadLogOnClose() }
      do throws(StoreError) {
        try database.close()
      } catch {
        failure.withLock { $0 = error }
      }
      Glibc.close(file)
      signals?.close()
      memory?.remove()
    }
    if let failure = failure.withLock({ $0 }) { throw failure }
  }

  /// True while the check of an unclean start runs, which then starts at once: writes are refused
  /// until it ends, and `lockWaits` is rung then.
  public var isBeingChecked: Bool { health.refusesWrite() }

  // MARK: - Confinement

  /// A write made only when it need not wait: nil (nothing written) while another write holds or
  /// asks for the writer, another process holds the store, or the check of an unclean start runs.
  func writeIfFree<T>(_ body: (Database) throws -> T) throws -> T? {
    guard !health.isChecking else { return nil }
    try health.ensureReadable()
    return try writer.run { database -> T? in
      guard try began(on: database) else { return nil }
      return try committing(body, on: database)
    } ?? nil
  }

  /// Runs a read on a reading connection of its own. In WAL mode a read takes no lock another
  /// connection holds for long, so it needs no busy timeout.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try health.ensureReadable()
    do {
      return try readers.read(open: openReader, body)
    } catch {
      health.record(error)
      throw error
    }
  }

  /// Records every connection's statements into `log`; nil stops.
  /// (The writing connection is set when the writer is free: at once, or as the write holding it ends.)
  func record(into log: StatementLog?) {
    readers.record(into: log)
    writer.whenFree { $0.trace(into: log) }
  }

  /// A new reading connection. It is opened by the store's path, so the path must still name the
  /// file the writer opened: a store moved or replaced before a read opens it is `fileGone` (the
  /// writer's holder checkpoints it next).
  private func openReader() throws(StoreError) -> Database {
    if let identity, !identity.isStill(filePath) { throw identity.gone(filePath) }
    let opened = try Database(path: filePath)
    do throws(StoreError) {
      try opened.configure(durability: durability, throwaway: memory != nil)
      if let identity, !identity.isStill(filePath) { throw identity.gone(filePath) }
    } catch {
      try? opened.close()
      throw error
    }
    settingsAtOpen.withLock { $0 = nil }
    return opened
  }

  /// Runs a change in one IMMEDIATE transaction on the writer; it has committed when this returns.
  /// Refused once the store is damaged or its file gone. No thread waits: a write that finds
  /// another process holding the store's lock, this process's writer held by another thread (a
  /// sync's write, a request's, a purge) or the check of an unclean start running has done
  /// nothing; within a write job (`attemptWrite`) the job is then busy, and made again by whoever
  /// submitted it; outside one (a test, a command) the refusal is the outcome (`busy`).
  @discardableResult
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    var inJob = false
    do {
      let written = try writer.run { database, job in
        inJob = job
        if health.refusesWrite() { throw StoreBusy(error: .checkRunning) }
        return try writing(body, on: database)
      }
      guard let written else { throw StoreBusy(error: .writerHeld) }
      return written
    } catch let busy as StoreBusy where !inJob {
      throw busy.error
    }
  }

  /// `body` in a transaction of its own, on the writer; `StoreBusy` when another process holds
  /// the store.
  private func writing<T>(_ body: (Database) throws -> T, on database: Database) throws -> T {
    try health.ensureReadable()
    guard try began(on: database) else { throw StoreBusy(error: .lockHeld) }
    let result = try committing(body, on: database)
    committedInJob = true
    return result
  }

  /// Begins an IMMEDIATE transaction on the writer; false when another process holds the store.
  private func began(on database: Database) throws -> Bool {
    try recordingFailure(on: database) {
      try verifyFile(on: database)
      guard case .began = try writer.begin() else { return false }
      let present = signals?.othersPresent() ?? false
      followed.set(present)
      triggersAfterCommit = nil
      if present != triggersInstalled {
        try ChangeLog.setTriggers(present, on: database, origin: changeOrigin)
        triggersAfterCommit = present
      }
      return true
    }
  }

  /// Runs `body` in the transaction begun, commits it, and rings the other processes' bell. A
  /// store no other process has open rings nobody (its own follower would only wake to find its
  /// own commit): a process that opens later waits out this write before it reads where the log
  /// stands, so it misses nothing.
  private func committing<T>(_ body: (Database) throws -> T, on database: Database) throws -> T {
    try recordingFailure(on: database) {
      let result = try database.committing {
        let result = try body(database)
        try database.flushTally()
        return result
      }
      if let installed = triggersAfterCommit { triggersInstalled = installed }
      keepStartSettings(database)
      // A write begun alone rings too when another process joined meanwhile: that one was on
      // another signal file (deleted and made again) and is waiting to hear of it (`StoreFollower`).
      if followed.isOn || signals?.othersPresent() == true { signals?.ring() }
      return result
    }
  }

  // MARK: - A moved or deleted file

  /// How long after opening the store file is watched. Removing an inotify watch waits for the
  /// kernel's grace period at exit (8-20 ms), which a server answering one request and exiting
  /// should not pay; a rename made meanwhile is found when the watch begins, at the next write,
  /// or at close, whichever comes first.
  static let watchDelay = 0.25

  /// Watches the store file from `watchDelay` on, so a rename or deletion is met when it happens,
  /// not at the next write: the changes still in the write-ahead log are checkpointed into the
  /// file at once.
  private func watchFile() {
    fileQueue.asyncAfter(deadline: .now() + Self.watchDelay) { [weak self] in
      guard let self else { return }
      let made = fileWatcher.withLock { state -> Bool in
        guard !state.closed else { return false }
        state.watcher = try? FileWatcher(path: filePath, events: [.attributes, .moved], queue: fileQueue) {
          [weak self] in self?.fileMoved()
        }
        return true
      }
      if made { fileMoved() }  // a rename before the watch began
    }
  }

  /// Checkpoints and refuses the store (`verifyFile`) when its path no longer names the file opened.
  private func fileMoved() {
    guard let identity, !identity.isStill(filePath) else { return }
    writer.whenFree { [self] database in try? verifyFile(on: database) }
  }

  /// Throws `.fileGone` (recorded, so every later request is refused) unless the path still names
  /// the file opened. Before it throws, every change committed so far is checkpointed from the
  /// write-ahead log into the file, wherever its name went: the log keeps the old name, and a
  /// server started there would take it as its own. The connections then neither checkpoint nor
  /// delete the log when they close.
  private func verifyFile(on database: Database) throws(StoreError) {
    guard let identity, !identity.isStill(filePath) else { return }
    if !fileAbandoned {
      fileAbandoned = true
      _ = try? database.scalar("PRAGMA wal_checkpoint(TRUNCATE)")
      database.leaveLogOnClose()
      readers.leaveLogOnClose()
    }
    let gone = identity.gone(filePath)
    health.record(gone)
    throw gone
  }

  /// Tells the start snapshot of the settings what the transaction just committed wrote to them.
  private func keepStartSettings(_ database: Database) {
    guard !database.settingsWritten.isEmpty else { return }
    let written = database.settingsWritten
    database.settingsWritten = [:]
    settingsAtOpen.withLock { settings in
      for (key, value) in written { settings?[key] = value }
    }
  }

  /// `body`, with a failure recorded (the store may be damaged) and the tally of a change that
  /// did not commit dropped.
  private func recordingFailure<T>(on database: Database, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      database.countChanges = FeedCounts()
      database.settingsWritten = [:]
      health.record(error)
      throw error
    }
  }
}
