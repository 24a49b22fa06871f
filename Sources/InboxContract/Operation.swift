import InboxApp
import InboxCore
import InboxStore
import InboxSync
import JSON
import JSONRPC

/// One use case as both faces offer it: its name in the contract, where it runs, its params
/// decoded once into a typed value, and its result encoded from the typed value the use case
/// returns. A face checks the params against the contract, then runs the operation; what the use
/// case changed reaches the face as typed values (`FeedChange`, `Warning`, `SyncProgress`).
protocol Operation: OperationContract {
  associatedtype Params
  static func run(_ params: Params, _ context: OperationContext) throws -> JSONValue
}

/// What every operation declares, whether it answers at once (`Operation`) or later
/// (`DeferredOperation`).
protocol OperationContract: SendableMetatype {
  associatedtype Params: OperationParams
  /// The method name, exactly as Schemas/openrpc.json spells it.
  static var name: String { get }
  /// Whether it reads (on the reader) or writes (one at a time, in arrival order); background for long work.
  static var execution: Method.Execution { get }
}

extension OperationContract {
  static var execution: Method.Execution { .read }
}

extension Operation {

  static var erased: AnyOperation {
    AnyOperation(name: name, execution: execution, decode: { try Params(ParamsReader($0)) }) { object, context in
      try run(Params(ParamsReader(object)), context)
    }
  }
}

/// A method's params as a typed value: read from the params the contract accepted, and written
/// back as a host would send them.
public protocol OperationParams: Sendable {
  init(_ params: ParamsReader) throws(RPCError)
  var json: JSONObject { get }
}

/// An operation whatever its params type.
public struct AnyOperation: Sendable {
  public let name: String
  public let execution: Method.Execution
  /// The params decoded into the method's type, as `run` decodes them.
  public let decode: @Sendable (JSONObject) throws -> any OperationParams
  /// What runs it: an operation that answers at once returns its result; one that answers later
  /// starts, and answers through the `Reply` (`DeferredOperation`).
  private enum Body {
    case now(@Sendable (JSONObject, OperationContext) throws -> JSONValue)
    case later(@Sendable (JSONObject, OperationContext, Reply) -> Void)
  }

  private let body: Body

  /// True for an operation that answers later, holding no thread while it waits its turn.
  public var answersLater: Bool {
    if case .later = body { return true }
    return false
  }

  init(
    name: String, execution: Method.Execution,
    decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    body: @escaping @Sendable (JSONObject, OperationContext) throws -> JSONValue
  ) {
    let run = execution == .write ? Self.waitingInTheScheduler(body) : body
    self.init(name: name, execution: execution, decode: decode, body: .now(run))
  }

  /// A write as the scheduler runs it (`OperationContext.writing`).
  private static func waitingInTheScheduler(
    _ body: @escaping @Sendable (JSONObject, OperationContext) throws -> JSONValue
  ) -> @Sendable (JSONObject, OperationContext) throws -> JSONValue {
    { params, context in try context.writing { try body(params, context) } }
  }

  init(
    name: String, execution: Method.Execution, decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    start: @escaping @Sendable (JSONObject, OperationContext, Reply) -> Void
  ) {
    self.init(name: name, execution: execution, decode: decode, body: .later(start))
  }

  private init(
    name: String, execution: Method.Execution, decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    body: Body
  ) {
    self.name = name
    self.execution = execution
    self.decode = decode
    self.body = body
  }

  /// What runs an operation that answers at once, on params the contract has accepted; nil for one
  /// that answers later (`start` it).
  public var immediate: (@Sendable (JSONObject, OperationContext) throws -> JSONValue)? {
    guard case .now(let run) = body else { return nil }
    return run
  }

  /// Starts the operation on params the contract has accepted; `reply` gets its outcome.
  public func start(_ params: JSONObject, _ context: OperationContext, _ reply: Reply) {
    switch body {
    case .now(let run): reply.answer { try run(params, context) }
    case .later(let start): start(params, context, reply)
    }
  }
}

/// Where an operation's events go, said the way the face that runs it says them.
public struct Reporter: Sendable {
  /// A committed change of the feed.
  public var changed: @Sendable (FeedChange) -> Void
  /// An engine warning not said before (each is said once per server).
  public var warned: @Sendable (Warning) -> Void
  /// A step of a sync that reports progress.
  public var progress: @Sendable (SyncProgress) -> Void
  /// How far a wallet pass download is.
  public var downloading: @Sendable (PassProgress) -> Void
  /// The host's report of a Wallet sheet, recorded.
  public var walletReported: @Sendable (WalletRecord) -> Void

  public init(
    changed: @escaping @Sendable (FeedChange) -> Void, warned: @escaping @Sendable (Warning) -> Void,
    progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
    downloading: @escaping @Sendable (PassProgress) -> Void = { _ in },
    walletReported: @escaping @Sendable (WalletRecord) -> Void = { _ in }
  ) {
    self.changed = changed
    self.warned = warned
    self.progress = progress
    self.downloading = downloading
    self.walletReported = walletReported
  }
}

/// What an operation runs with: the inbox, where its events go, its cancellation and the log.
public struct OperationContext: Sendable {
  public let inbox: Inbox
  public let reporter: Reporter
  public let warnings: WarningLog
  public let cancellation: CancellationToken
  public let logger: Logger
  /// What a write that meets another process's lock does: the request's (`RequestContext`).
  public let lockPatience: LockPatience

  public init(
    inbox: Inbox, reporter: Reporter, warnings: WarningLog, cancellation: CancellationToken, logger: Logger,
    lockPatience: LockPatience = .answersAtOnce
  ) {
    self.lockPatience = lockPatience
    self.inbox = inbox
    self.reporter = reporter
    self.warnings = warnings
    self.cancellation = cancellation
    self.logger = logger
  }

  /// Runs `body`, a use case that writes, as the scheduler runs a write: the store's write lock met
  /// before anything was committed is waited for by the scheduler (`RetryLater`), not by a thread,
  /// and once the patience is out the write answers `busy`. Outside the scheduler (`.answersAtOnce`) it
  /// just runs, and a lock it meets is its outcome (`busy`).
  public func writing<T>(_ body: () throws -> T) throws -> T {
    guard lockPatience != .answersAtOnce else { return try body() }
    do {
      return try inbox.handingLockWaits(body)
    } catch is LockedWrite {
      guard lockPatience == .retries else { throw StoreError.lockHeldTooLong }
      throw RetryLater(patience: LockWaits.patience, wake: inbox.lockWaits.wake)
    }
  }

  /// Tells the face what a use case did: its warnings (once each, also on stderr), then its
  /// changes, each with the counts after it.
  public func report(_ effects: Effects) {
    for warning in warnings.fresh(effects.warnings) {
      logger.warn(warning.description)
      reporter.warned(warning)
    }
    for change in effects.changes { reporter.changed(inbox.counted(change)) }
  }

  /// Tells the face what a configuration change did: the account change on stderr, then its effects.
  public func report(_ result: ConfigResult) {
    if let outcome = result.accountChange {
      logger.info(
        "backend account changed: \(outcome.removed.count) messages cleared, \(outcome.dropped) unsendable changes dropped"
      )
    }
    report(result.effects)
  }

  /// A sync's events as this face says them: progress, the merge's change, warnings, notes.
  public func syncObserver(progress: Bool) -> SyncObserver {
    let reporter = reporter
    return SyncObserver(
      progress: { step in if progress { reporter.progress(step) } },
      changed: { [inbox] change in reporter.changed(inbox.counted(change)) },
      warnings: { found in report(Effects(warnings: found)) },
      log: { [logger] note in logger.info("sync: \(note)") })
  }
}
