import Dispatch
import InboxStore
import Posix
import Synchronization

/// Commits other processes make to the store, reported as this process reports its own: a ring
/// on the store's signal file (`FileWatcher`; another process's commit rings it) wakes it on a
/// queue of its own, SQLite's `data_version` says whether anything committed since the last look,
/// and the change log says which messages changed. It forgets what the caches hold of them, then
/// reports one `FeedChange` with reason `elsewhere` and the counts after it, so a read made after
/// the report is fresh and a badge needs no further call. No
/// thread waits and nothing runs until a ring.
public final class StoreFollower: Sendable {
  private let inbox: Inbox
  private let queue = DispatchQueue(label: "inbox-rpc.store-follower")
  /// The last change-log row read; only on `queue` after `init`. Nil while it could not be read
  /// (a damaged store fails its requests, not the start).
  private let position: Mutex<Int64?>
  private let watcher = Mutex<FileWatcher?>(nil)
  /// Watches the store's directory for a new signal file (`reestablish`).
  private let directoryWatcher = Mutex<FileWatcher?>(nil)
  /// Run after each wake's report, on `queue`: work waiting for another process (a sync's lease).
  private let wakeHandlers = Mutex<[@Sendable () -> Void]>([])
  /// Where `start` was told to log.
  private let logger = Mutex<(@Sendable (String) -> Void)?>(nil)
  /// How long a server waits before it follows other processes' commits (`start(after:changed:log:)`).
  public static let startDelay = 0.25
  /// A start asked for and not made yet (`start(after:changed:log:)`).
  private let pending = Mutex<Start?>(nil)
  /// Set when this process joined a new signal file (`reestablish`): a write another process began
  /// there before this one was present may still commit, unlogged, so each commit seen is told as
  /// a note without ids until the log shows a row written since.
  private let joinedMidWrite = Atomic<Bool>(false)

  private struct Start {
    var changed: @Sendable (FeedChange) -> Void
    var log: @Sendable (String) -> Void
  }

  /// Follows from where the log stood when the store opened: commits other processes made after
  /// that are reported.
  init(inbox: Inbox) {
    self.inbox = inbox
    position = Mutex(inbox.store.changeLogTailAtOpen ?? (try? inbox.store.changeLogTail()))
  }

  /// Starts following once `delay` seconds have passed, or at once when something needs it sooner
  /// (`startIfPending`: a sync that may wait for another process's lease). A process that answers a
  /// request or two and exits (the shell client starts one per call) then never makes its watches:
  /// the kernel's removal of an inotify watch waits for a grace period, 8-20 ms here, at every exit.
  /// Nothing is missed meanwhile: the first look reports every commit made since the open, and the
  /// caches check each row they serve against the store.
  public func start(
    after delay: Double, changed: @escaping @Sendable (FeedChange) -> Void, log: @escaping @Sendable (String) -> Void
  ) {
    pending.withLock { $0 = Start(changed: changed, log: log) }
    queue.asyncAfter(deadline: .now() + delay) { [self] in startIfPending() }
  }

  /// Makes the start asked for by `start(after:changed:log:)`, if it is still to be made.
  func startIfPending() {
    guard
      let asked = pending.withLock({ asked in
        defer { asked = nil }; return asked
      })
    else { return }
    start(changed: asked.changed, log: asked.log)
  }

  /// Starts following; `changed` hears each change made elsewhere, `log` a failure to read it.
  public func start(changed: @escaping @Sendable (FeedChange) -> Void, log: @escaping @Sendable (String) -> Void) {
    guard let signals = inbox.store.signals else { return }
    logger.withLock { $0 = log }
    do {
      try watch(signals, changed: changed, log: log)
      let directory = try FileWatcher(path: Files.directory(of: signals.path), events: .created, queue: queue) {
        [self] in
        if signals.isReplaced { reestablish(signals, changed: changed, log: log) }
      }
      directoryWatcher.withLock { $0 = directory }
      // Commits made between the open and now rang before anyone watched: look once. A file put in
      // place of the signal file meanwhile was not seen appear: look for one too.
      queue.async { [self] in
        if signals.isReplaced { reestablish(signals, changed: changed, log: log) }
        wake(changed: changed, log: log)
      }
    } catch {
      log("changes made by other processes will not be reported: \(error)")
    }
  }

  /// Watches the signal file for rings.
  private func watch(
    _ signals: SignalFile, changed: @escaping @Sendable (FeedChange) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) throws {
    // The open file, not its name: a file whose name was deleted before the watch began still rings.
    let watching = try FileWatcher(path: signals.openFilePath ?? signals.path, queue: queue) { [self] in
      wake(changed: changed, log: log)
    }
    watcher.withLock { old in
      old?.cancel()
      old = watching
    }
  }

  /// The signal file's name names another file: the file was deleted (a cleanup script) and a
  /// process opening the store made it again, or another file was moved there. The processes still
  /// on the old one and those on the new one would never hear each other, so every process that
  /// sees the new file appear, or finds it at its first look, opens it (vetted as at open), watches
  /// it and rings it: they are one group again. One it cannot hold to the store's rules is said,
  /// with what to do. A file deleted and not made again is not made here: the servers still share
  /// the old one, and a deleted directory stays deleted.
  ///
  /// The processes on the new file saw nobody else present, so what they committed before this
  /// one joined is not in the change log: it is told as a note without ids (the caches forget
  /// everything, the host reads the feed again), now and at each commit seen until the log shows
  /// one written since (a write begun before this process was present may commit meanwhile).
  private func reestablish(
    _ signals: SignalFile, changed: @escaping @Sendable (FeedChange) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) {
    do {
      try signals.reopen()
      try watch(signals, changed: changed, log: log)
      joinedMidWrite.store(true, ordering: .relaxed)
      signals.ring()
      try reportUnlogged(changed)
    } catch {
      log(
        "the store's signal file \(signals.path) was deleted or replaced and cannot be used again (\(error)): "
          + "changes other processes make are not reported, nor do syncs take turns with theirs; "
          + "move it away and restart the servers on this store")
    }
  }

  /// Tells changes the change log may not hold: a note without ids, the caches forgotten, and the
  /// log followed from where it stands.
  private func reportUnlogged(_ changed: (FeedChange) -> Void) throws {
    let tail = try inbox.store.changeLogTail()
    position.withLock { $0 = tail }
    inbox.forget(StoreChanges(through: tail, incomplete: true))
    changed(FeedChange(.elsewhere))
  }

  /// Logs `line` where `start` was told to (nowhere before it).
  func log(_ line: String) { logger.withLock { $0 }?(line) }

  /// True once `start` watches the store's signal file.
  var isWatching: Bool { watcher.withLock { $0 != nil } }

  /// Stops following; once it returns no report is made.
  public func stop() {
    pending.withLock { $0 = nil }
    directoryWatcher.withLock { $0?.cancel() }
    watcher.withLock { $0?.cancel() }
    queue.sync {}
  }

  /// Runs `body` on the follower's queue after the next wake has been reported (once).
  func afterNextWake(_ body: @escaping @Sendable () -> Void) {
    wakeHandlers.withLock { $0.append(body) }
  }

  private func wake(changed: (FeedChange) -> Void, log: (String) -> Void) {
    dispatchPrecondition(condition: .onQueue(queue))
    // Another process committed: a write waiting for its lock may go.
    inbox.lockWaits.ring()
    do {
      try report(changed)
    } catch {
      log("reading the changes other processes made: \(error)")
    }
    let handlers = wakeHandlers.withLock { handlers in
      defer { handlers = [] }
      return handlers
    }
    for handler in handlers { handler() }
  }

  /// Reports what was committed elsewhere since the last look, the caches forgotten first.
  private func report(_ changed: (FeedChange) -> Void) throws {
    guard let after = position.withLock({ $0 }) else {
      // Nothing can be told from a log whose start was not read: start from where it stands.
      let tail = try inbox.store.changeLogTail()
      return position.withLock { $0 = tail }
    }
    guard let found = try inbox.store.changes(after: after) else { return }
    if joinedMidWrite.load(ordering: .relaxed) {
      // A row logged since is a write begun once this process was present: any begun before has
      // committed by then (one write at a time), and what the log holds from here is complete.
      if found.through > after { joinedMidWrite.store(false, ordering: .relaxed) }
      return try reportUnlogged(changed)
    }
    position.withLock { $0 = found.through }
    guard !found.isEmpty else { return }
    inbox.forget(found)
    // More changed than the log still lists (or than it showed in order): the note without ids,
    // after which the host reads the feed again.
    guard !found.incomplete else { return changed(FeedChange(.elsewhere)) }
    changed(
      FeedChange(.elsewhere, added: found.added, updated: found.updated, removed: found.removed))
  }
}

extension Inbox {
  /// Forgets what the caches hold of messages another process changed: their cards, and the
  /// sync's memo of the last merged reply (the store is no longer as that merge left it).
  func forget(_ changes: StoreChanges) {
    cache.forget(changes.added + changes.updated + changes.removed, all: changes.incomplete)
    sync.forgetLastMerge()
  }
}
