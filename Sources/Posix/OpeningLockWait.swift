import Dispatch

/// One wait for a signal file's opening lock (`SignalFile.takeOpeningLock`), holding no thread: the
/// lock is tried again each time the file is written or a descriptor that wrote it closes (the
/// holder rings as it releases it; the kernel closes the descriptor of one that ends), and given up
/// at the deadline, a timer's. Whichever comes first decides, once.
final class OpeningLockWait: @unchecked Sendable {
  // Unchecked: `watcher` and `deadline` are set, read and cleared only on `queue`.
  private let file: SignalFile
  private let then: @Sendable (Bool) -> Void
  private let queue = DispatchQueue(label: "inbox-rpc.opening-lock")
  /// The watch and the deadline while the wait is undecided; nil once decided.
  private var watcher: FileWatcher?
  private var deadline: DispatchSourceTimer?

  init(file: SignalFile, then: @escaping @Sendable (Bool) -> Void) {
    (self.file, self.then) = (file, then)
  }

  func start(seconds: Double) {
    queue.async { [self] in
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + .nanoseconds(Int(seconds * 1_000_000_000)))
      timer.setEventHandler { [self] in decide(false) }
      deadline = timer
      // No watch (the file is closed, or inotify refused): the deadline alone ends the wait.
      watcher = file.openFilePath.flatMap { path in try? FileWatcher(path: path, queue: queue) { [self] in retry() } }
      timer.resume()
      // Released between the first try and the watch: no ring is left to hear, so try once more.
      retry()
    }
  }

  /// Tries the lock again while the wait is undecided (a ring queued after the decision is not
  /// heard: the lock is then either held already or given up).
  private func retry() {
    guard deadline != nil, file.tryOpeningLock() else { return }
    decide(true)
  }

  /// Ends the wait with `held`, the first time only.
  private func decide(_ held: Bool) {
    guard let timer = deadline else { return }
    timer.cancel()
    watcher?.cancel()
    (deadline, watcher) = (nil, nil)
    then(held)
  }
}
