import InboxApp
import InboxStore
import InboxSync
import JSONRPC
import Posix

/// The inbox as one process runs it, whichever face serves it (JSON-RPC or MCP): the inbox opened
/// from the options, the one log of the engine warnings said, and the work done between requests,
/// the periodic sync and the following of other processes' commits. `main` builds it once, then one
/// face on it, and hands `start` the face's reporter.
public final class InboxRuntime: Sendable {
  public let inbox: Inbox
  /// What applying the start-up backend settings did: whether an account change cleared the inbox.
  public let startupOutcome: Synchronizer.ConfigureOutcome?
  /// The warnings said so far: each is said once per process, whichever request or sync met it.
  public let warnings = WarningLog()
  private let background: BackgroundSync?
  private let follower: StoreFollower

  /// Opens the inbox on `store` (`Inbox.open`); `backend` replaces the HTTP backend (tests).
  public init(options: InboxOptions, store: InboxStore, backend: (any Backend)? = nil) throws {
    let opened = try Inbox.open(options: options, store: store, backend: backend)
    inbox = opened.inbox
    startupOutcome = opened.startupOutcome
    background = opened.background
    follower = opened.follower
  }

  /// Opens the runtime as `init` does, with no thread waiting for another process's write lock:
  /// its start-up writes (the backend settings, the sample feed) are one write job, made again
  /// while it is busy as its `Patience` allows (before any face runs, there is no scheduler to
  /// submit it to). It is the same whenever it is made again, even after a first write committed.
  /// `completion` gets the outcome.
  public static func open(
    options: InboxOptions, store: InboxStore,
    completion: @escaping @Sendable (Result<InboxRuntime, any Error>) -> Void
  ) {
    WriteAttempt.retrying(
      { store.attemptWrite(repeatable: true) { try InboxRuntime(options: options, store: store) } },
      completion: completion)
  }

  /// Starts the background sync, if the options ask for one, and the following of other processes'
  /// commits; what they do is said through `reporter`, the serving face's.
  public func start(reporter: Reporter, logger: Logger) {
    let context = OperationContext(
      inbox: inbox, reporter: reporter, warnings: warnings, cancellation: CancellationToken(), logger: logger)
    follower.start(after: StoreFollower.startDelay, changed: { reporter.changed(context.counted($0)) }) {
      logger.warn($0)
    }
    background?.start(observer: context.syncObserver(progress: false)) { line, warning in
      if warning { logger.warn(line) } else { logger.info(line) }
    }
  }

  /// Stops the background sync and waits for a sync in flight to end; call before closing the store.
  public func stop() {
    background?.stop()
    follower.stop()
  }
}
