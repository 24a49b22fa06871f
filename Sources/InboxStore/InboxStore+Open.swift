import Dispatch
import Posix

#if canImport(Glibc)
  import Glibc
#endif

extension InboxStore {
  /// Opens (creating if needed, mode 0600) and migrates the store to the latest schema, and calls
  /// `completion` with it; no thread waits meanwhile. A store that is not the user's alone is
  /// refused (`StoreTrust`), one others can read is made 0600.
  ///
  /// Nothing is written before the file is known to be an inbox store or new and empty. Opening
  /// costs the same whatever the store's size: a store its last process closed cleanly is not
  /// checked (damage met later fails that call and every later one); after an unclean end (a
  /// write-ahead log left beside it) `quick_check` runs in the background, from 250 ms after the
  /// start or as soon as a write wants its verdict.
  ///
  /// Two processes opening one store take turns (`SignalFile.takeOpeningLock`, at most
  /// `openingWaitSeconds`). An open that meets another process's write lock (a migration, the
  /// switch to WAL, a write in progress) starts again when that process commits (it rings the
  /// signal file) or at SQLite's busy-handler intervals, and fails `busy` once its `Patience` has
  /// passed.
  public static func open(
    _ options: Options, completion: @escaping @Sendable (Result<InboxStore, StoreError>) -> Void
  ) {
    guard options.path != ":memory:" else {
      return completion(Result { () throws(StoreError) in try openInMemory(options) })
    }
    let path = options.path
    let fd: Int32
    let signals: SignalFile
    do throws(StoreError) {
      // Kept open until the store closes (`close`): see `file`.
      fd = try StoreFile.prepare(path)
      do {
        signals = try openSignals(path, warn: options.warn)
      } catch {
        Glibc.close(fd)
        throw error
      }
    } catch {
      return completion(.failure(error))
    }
    signals.takeOpeningLock(waitingAtMost: openingWaitSeconds) { held in
      if !held {
        options.warn("another process has been opening \(path) for \(Self.openingWaitSeconds) s; opening it anyway")
      }
      StoreOpening(options: options, file: fd, signals: signals, holdsOpeningLock: held, completion: completion)
        .start()
    }
  }
}

extension InboxStore {
  /// A store in memory (`options.path` is ":memory:"; `MemoryStoreFile`): no other process can
  /// hold its lock and no file needs checking, so it opens at once (tests, fuzzing,
  /// `--store :memory:`). It starts as the empty store the migrations make, written whole.
  public static func openInMemory(
    _ options: Options = Options(path: ":memory:")
  ) throws(StoreError) -> InboxStore {
    precondition(options.path == ":memory:", "openInMemory is for \":memory:\" stores")
    let memory = try MemoryStoreFile.make(image: EmptyStore.image, warn: options.warn)
    do {
      return try connect(options, file: memory.fd, memory: memory, signals: nil)
    } catch {
      Glibc.close(memory.fd)
      memory.remove()
      throw error
    }
  }
}

/// One open of a store file, busy while another process holds the store's write lock: made again
/// when that process commits (it rings the signal file) or at SQLite's busy-handler intervals.
/// Before the store opens there is no scheduler: the open is made again as `WriteAttempt.retrying`
/// makes a write, with the same patience.
private final class StoreOpening: @unchecked Sendable {
  // Unchecked: `watcher` is touched by one attempt at a time, each started by the last.
  let options: InboxStore.Options
  let file: Int32
  let signals: SignalFile
  let holdsOpeningLock: Bool
  let completion: @Sendable (Result<InboxStore, StoreError>) -> Void
  /// Rung when another process commits (it rings the signal file): the lock may be free.
  let rung = StoreLockWaits()
  var watcher: FileWatcher?

  init(
    options: InboxStore.Options, file: Int32, signals: SignalFile, holdsOpeningLock: Bool,
    completion: @escaping @Sendable (Result<InboxStore, StoreError>) -> Void
  ) {
    (self.options, self.file, self.signals) = (options, file, signals)
    (self.holdsOpeningLock, self.completion) = (holdsOpeningLock, completion)
  }

  func start() {
    WriteAttempt.retrying({ [self] in attempt() }) { [self] outcome in
      watcher?.cancel()
      switch outcome {
      case .success(let store):
        if holdsOpeningLock { signals.releaseOpeningLock() }
        completion(.success(store))
      case .failure(let error):
        signals.close()
        Glibc.close(file)
        completion(.failure(error as? StoreError ?? StoreError(kind: .cannotOpen, message: "\(error)")))
      }
    }
  }

  private func attempt() -> WriteAttempt<InboxStore> {
    do {
      return .done(.success(try InboxStore.connect(options, file: file, signals: signals)))
    } catch  where error.kind == .busy {
      if watcher == nil {
        watcher = try? FileWatcher(path: signals.openFilePath ?? signals.path, queue: .global()) { [rung] in
          rung.ring()
        }
      }
      return .busy(wake: rung.wake, tooLong: .failure(StoreError.lockHeldTooLong))
    } catch {
      return .done(.failure(error))
    }
  }
}
