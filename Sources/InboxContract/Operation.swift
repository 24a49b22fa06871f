import InboxApp
import InboxCore
import InboxStore
import InboxSync
import JSON
import JSONRPC
import Posix

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
  /// What runs an operation, on params the contract has accepted.
  public enum Run: Sendable {
    /// Answers at once (a read).
    case now(@Sendable (JSONObject, OperationContext) throws -> JSONValue)
    /// A write job: its result, or busy having done nothing (the scheduler runs it again).
    case write(@Sendable (JSONObject, OperationContext) -> WriteAttempt<JSONValue>)
    /// Starts, and answers later through the `Reply` (`DeferredOperation`).
    case later(@Sendable (JSONObject, OperationContext, Reply) -> Void)
  }

  public let run: Run

  /// True for an operation that answers later, holding no thread while it waits its turn.
  public var answersLater: Bool {
    if case .later = run { return true }
    return false
  }

  init(
    name: String, execution: Method.Execution,
    decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    body: @escaping @Sendable (JSONObject, OperationContext) throws -> JSONValue
  ) {
    guard execution == .write else {
      self.init(name: name, execution: execution, decode: decode, run: .now(body))
      return
    }
    // The job begun, run and ended here: the store hands back a value, and calls nothing back.
    let write: @Sendable (JSONObject, OperationContext) -> WriteAttempt<JSONValue> = { params, context in
      guard let job = context.inbox.beginWriteJob() else { return context.inbox.busyWrite() }
      return job.end(Result { try body(params, context) })
    }
    self.init(name: name, execution: execution, decode: decode, run: .write(write))
  }

  init(
    name: String, execution: Method.Execution, decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    start: @escaping @Sendable (JSONObject, OperationContext, Reply) -> Void
  ) {
    self.init(name: name, execution: execution, decode: decode, run: .later(start))
  }

  private init(
    name: String, execution: Method.Execution, decode: @escaping @Sendable (JSONObject) throws -> any OperationParams,
    run: Run
  ) {
    self.name = name
    self.execution = execution
    self.decode = decode
    self.run = run
  }

  /// Starts the operation on params the contract has accepted; `reply` gets its outcome. A write is
  /// submitted to the context's scheduler (`OperationContext.writes`), which makes it again while
  /// it is busy.
  public func start(_ params: JSONObject, _ context: OperationContext, _ reply: Reply) {
    switch run {
    case .now(let run): reply.answer { try run(params, context) }
    case .write(let write): context.writes.submit({ write(params, context) }, completion: reply.callAsFunction)
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
  /// Whether this face sends a change's counts (JSON-RPC's `feed.changed` does; MCP's resource
  /// notifications do not): the counts are read after a commit only for one that does.
  public var sendsCounts: Bool

  public init(
    changed: @escaping @Sendable (FeedChange) -> Void, warned: @escaping @Sendable (Warning) -> Void,
    progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
    downloading: @escaping @Sendable (PassProgress) -> Void = { _ in },
    walletReported: @escaping @Sendable (WalletRecord) -> Void = { _ in }, sendsCounts: Bool = true
  ) {
    self.sendsCounts = sendsCounts
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
  /// Where a write that is not the request's own is submitted (the request's `WriteJobs`).
  public let writes: WriteJobs

  public init(
    inbox: Inbox, reporter: Reporter, warnings: WarningLog, cancellation: CancellationToken, logger: Logger,
    writes: WriteJobs = .once
  ) {
    self.writes = writes
    self.inbox = inbox
    self.reporter = reporter
    self.warnings = warnings
    self.cancellation = cancellation
    self.logger = logger
  }

  /// Tells the face what a use case did: its warnings (once each, also on stderr), then its
  /// changes, each with the counts after it.
  public func report(_ effects: Effects) {
    for warning in warnings.fresh(effects.warnings) {
      logger.warn(warning.description)
      reporter.warned(warning)
    }
    for change in effects.changes { reporter.changed(counted(change)) }
  }

  /// `change` with the counts after it, for a face that sends them.
  public func counted(_ change: FeedChange) -> FeedChange {
    reporter.sendsCounts ? inbox.counted(change) : change
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
      changed: { change in reporter.changed(counted(change)) },
      warnings: { found in report(Effects(warnings: found)) },
      log: { [logger] note in logger.info("sync: \(note)") })
  }
}
