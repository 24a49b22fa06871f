import JSON
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serves JSON-RPC 2.0 over a pair of file descriptors until end of input or `exit`.
///
/// The reader thread reads, splits and parses frames and runs `inline` methods in arrival order;
/// `background` methods and every batch run on worker threads, so the reader keeps reading (and
/// answers a ping, and delivers `$/cancelRequest`) while they work. Replies go out through the one
/// `OutputWriter`. Memory is bounded whatever the host sends: frames in flight on workers hold at
/// most twice the frame limit of input (`InputBacklog`), batches hold at most `maxReplyBytes` of
/// encoded replies (`ReplyBudget`), and no single reply is larger.
public final class Connection: @unchecked Sendable {
  /// Limits and choices that apply to one connection.
  public struct Configuration: Sendable {
    /// Forced framing, or nil to detect it from the first bytes.
    public var framing: Framing?
    public var maxFrameBytes = 16 * 1024 * 1024
    public var maxBatchSize = 1000
    /// Reply bytes held for batches, across the connection; also the largest single reply.
    public var maxReplyBytes = 16 * 1024 * 1024
    public var json = JSONReadOptions.default
    /// How long in-flight work may run after end of input before it is cancelled.
    public var drainTimeout = 1.5
    /// True while the `serial` work in progress waits on another process: inline requests then go
    /// ahead of it instead of waiting for it.
    public var serialWorkIsWaiting: @Sendable () -> Bool = { false }

    public init(framing: Framing? = nil) { self.framing = framing }
  }

  /// Methods the connection answers itself: they change its own lifecycle.
  public static let lifecycleMethods = ["shutdown", "exit", "$/cancelRequest"]

  private let configuration: Configuration
  private let registry: MethodRegistry
  private let writer: OutputWriter
  private let logger: Logger
  /// Background requests: at most 16 run at once, the rest wait their turn in arrival order.
  private let workers = WorkerPool(limit: 16)
  /// `serial` requests: one at a time, in arrival order. `serialCount` counts those not finished.
  private let serialLane = WorkerPool(limit: 1)
  private let serialCount = Atomic<Int>(0)
  private let serialIdle = ConditionLock()
  private let backlog: InputBacklog
  private let replyBudget: ReplyBudget

  // Guarded by `lock`: `inFlight`, `answersAloneIDs`. The reader thread and workers both touch them.
  private let lock = ConditionLock()
  private var inFlight: [JSONValue: CancellationToken] = [:]
  /// In-flight ids that are single requests (not batch members), so a cancel may answer them alone.
  private var answersAloneIDs: Set<JSONValue> = []
  /// Set by `shutdown`; read by every request after it, on any thread.
  private let shutdownRequested = Atomic<Bool>(false)
  /// Set by the `exit` notification, which a batch may carry to a worker thread.
  private let exitFlag = Atomic<Bool>(false)
  // Reader-thread only: `reader`, `framingAnnounced`.
  private var reader: FrameReader
  private var framingAnnounced = false

  public init(configuration: Configuration, registry: MethodRegistry, writer: OutputWriter, logger: Logger) {
    self.configuration = configuration
    self.registry = registry
    self.writer = writer
    self.logger = logger
    reader = FrameReader(framing: configuration.framing, maxFrameBytes: configuration.maxFrameBytes)
    backlog = InputBacklog(limit: 2 * configuration.maxFrameBytes)
    replyBudget = ReplyBudget(limit: configuration.maxReplyBytes)
  }

  private var exitRequested: Bool { exitFlag.load(ordering: .acquiring) }

  /// Sends a notification to the host (handlers reach this through `RequestContext.notify`).
  public func notify(_ method: String, _ params: JSONValue) {
    writer.send(Response.notification(method, params))
  }

  /// Reads `input` until end of file or `exit`, then finishes in-flight work; returns the exit code.
  public func serve(input: Int32) -> Int32 {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while !exitRequested {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        logger.error("reading input failed: \(String(cString: strerror(errno)))")
        break
      }
      if count == 0 {
        if let last = reader.finish() {
          announceFraming()
          handle(last)
        }
        break
      }
      chunk.withUnsafeBytes { receive(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }
    return finish()
  }

  /// Handles bytes as they arrive: every complete frame in them is answered before this returns
  /// (or handed to a worker). Call it from one thread only: the reader.
  public func receive(_ bytes: UnsafeRawBufferPointer) {
    reader.append(bytes)
    while !exitRequested, let event = reader.next() {
      announceFraming()
      handle(event)
    }
  }

  /// Replies go out in the framing the host's input was read in, from the first reply on.
  private func announceFraming() {
    guard !framingAnnounced, let framing = reader.framing else { return }
    writer.use(framing)
    framingAnnounced = true
    logger.debug("framing: \(framing.rawValue)")
  }

  /// Ends the session: lets in-flight work finish, flushes the log, and returns the exit code.
  public func finish() -> Int32 {
    finishInFlightWork()
    logger.flush()
    if exitRequested { return shutdownRequested.load(ordering: .acquiring) ? 0 : 1 }
    return 0
  }

  // MARK: - Frames

  private func handle(_ event: FrameReader.Event) {
    switch event {
    case .frame(let bytes):
      handleFrame(bytes)
    case .tooLarge(let limit, let size):
      var data: JSONObject = ["limit": .int(Int64(limit))]
      if let size { data["size"] = .int(Int64(size)) }
      let reason = "frame larger than the limit of \(limit) bytes (--max-frame-bytes)"
      writer.send(Response.error(id: .null, .invalidRequest(reason, data: data)))
    case .badHeader(let reason):
      writer.send(Response.error(id: .null, RPCError(.parseError, "Parse error", data: ["reason": .string(reason)])))
    }
  }

  private func handleFrame(_ bytes: [UInt8]) {
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes, options: configuration.json)
    } catch {
      writer.send(Response.error(id: .null, Self.rpcError(for: error, depthLimit: configuration.json.maxDepth)))
      return
    }
    guard case .array(let items) = value else {
      dispatch([Incoming(value)], asBatch: false, inputBytes: bytes.count)
      return
    }
    if items.isEmpty {
      writer.send(Response.error(id: .null, .invalidRequest("empty batch")))
    } else if items.count > configuration.maxBatchSize {
      let data: JSONObject = ["limit": .int(Int64(configuration.maxBatchSize)), "size": .int(Int64(items.count))]
      let reason = "batch too large: \(items.count) requests, limit \(configuration.maxBatchSize) (--max-batch)"
      writer.send(Response.error(id: .null, .invalidRequest(reason, data: data)))
    } else {
      dispatch(items.map(Incoming.init), asBatch: true, inputBytes: bytes.count)
    }
  }

  /// -32700 for text that is not JSON; -32600 for JSON nested deeper than the limit.
  static func rpcError(for error: JSONError, depthLimit: Int) -> RPCError {
    if error.kind == .tooDeep {
      return .invalidRequest(
        "nesting deeper than \(depthLimit) levels (--max-depth)", data: ["limit": .int(Int64(depthLimit))])
    }
    var data: JSONObject = ["reason": .string(error.message), "kind": .string(error.kind.rawValue)]
    if error.position >= 0 {
      data["line"] = .int(Int64(error.line))
      data["column"] = .int(Int64(error.column))
      data["position"] = .int(Int64(error.position))
    }
    return RPCError(.parseError, "Parse error", data: .object(data))
  }

  // MARK: - Dispatch

  /// Runs the messages of one frame: a single quick request inline, anything else off the reader
  /// (a batch may be a thousand heavy requests); writes one at a time on a lane of their own. A
  /// batch gets one array reply, and none when every member was a notification.
  private func dispatch(_ messages: [Incoming], asBatch: Bool, inputBytes: Int) {
    func needs(_ execution: Method.Execution) -> Bool {
      messages.contains { message in
        switch message {
        case .request(_, let method, _), .notification(let method, _):
          return registry[method]?.execution == execution
        case .invalid, .response: return false
        }
      }
    }
    let serial = needs(.serial)
    let background = asBatch || needs(.background)
    if serial, !background, case .request = messages[0] {
      awaitSerialLane()
      if serialCount.load(ordering: .sequentiallyConsistent) == 0, let answer = runUnlessMoved(messages[0]) {
        sendSingle(answer)
        return
      }
    }
    guard serial || background else {
      awaitSerialLane()
      if let only = messages.first.flatMap({ run($0, token: nil) }) { sendSingle(only) }
      return
    }
    var tokens: [CancellationToken?] = []
    for message in messages {
      guard case .request(let id, _, _) = message else {
        tokens.append(nil)
        continue
      }
      let token = CancellationToken()
      track(id, token, answersAlone: !asBatch)
      tokens.append(token)
    }
    let tokensByMessage = tokens
    backlog.acquire(inputBytes)
    if serial { serialCount.add(1, ordering: .sequentiallyConsistent) }
    (serial ? serialLane : workers).submit { [self] in
      defer {
        backlog.release(inputBytes)
        if serial {
          serialIdle.withLock {
            serialCount.subtract(1, ordering: .sequentiallyConsistent)
            serialIdle.broadcast()
          }
        }
      }
      var batch = BatchReply(budget: replyBudget)
      for (message, token) in zip(messages, tokensByMessage) {
        token?.markStarted()
        defer { if case .request(let id, _, _) = message { untrack(id) } }
        guard let reply = run(message, token: token) else { continue }
        if asBatch {
          batch.append(reply)
        } else if token?.claimReply() ?? true {
          // A cancel that reached a request still waiting for a thread has answered it already.
          sendSingle(reply)
        }
      }
      if asBatch { batch.finish { writer.send(encoded: $0) } }
    }
  }

  /// Keeps inline requests behind earlier `serial` ones, unless those wait on another process.
  private func awaitSerialLane() {
    guard serialCount.load(ordering: .sequentiallyConsistent) > 0 else { return }
    serialIdle.withLock {
      // Woken when the lane empties; every millisecond, to see whether its work started waiting.
      while serialCount.load(ordering: .sequentiallyConsistent) > 0 && !configuration.serialWorkIsWaiting() {
        _ = serialIdle.wait(untilMonotonic: Clock.monotonicNanoseconds + 1_000_000)
      }
    }
  }

  /// Writes a single reply, or -32600 in its place when it is larger than the reply limit.
  private func sendSingle(_ reply: JSONValue) {
    let body = reply.serialized()
    guard body.count > replyBudget.limit else { return writer.send(encoded: body) }
    writer.send(Response.error(id: reply["id"] ?? .null, .replyTooLarge(size: body.count, limit: replyBudget.limit)))
  }

  /// Runs a `serial` request on the reader; nil when its handler asked to move off it.
  private func runUnlessMoved(_ message: Incoming) -> JSONValue? {
    guard case .request(let id, let method, let params) = message else { return nil }
    do {
      return Response.result(id: id, try runRequest(id: id, method: method, params: params, token: .inline))
    } catch is RunOffReader {
      return nil
    } catch {
      return errorReply(id: id, method: method, error)
    }
  }

  private func errorReply(id: JSONValue, method: String, _ error: any Error) -> JSONValue {
    let rpcError = RPCError(error)
    if rpcError.code == .internalError { logger.error("\(method) failed: \(rpcError.data?.jsonString ?? "")") }
    return Response.error(id: id, rpcError)
  }

  /// Runs one message and returns its reply, or nil for a notification.
  private func run(_ message: Incoming, token: CancellationToken?) -> JSONValue? {
    switch message {
    case .invalid(let id, let error):
      return Response.error(id: id, error)
    case .notification(let method, let params):
      runNotification(method, params)
      return nil
    case .response:
      logger.info("a response object was received and ignored: the server sends no requests")
      return nil
    case .request(let id, let method, let params):
      logger.debug("request \(method) id \(id.jsonString)")
      do {
        let result = try runRequest(id: id, method: method, params: params, token: token ?? .inline)
        return Response.result(id: id, result)
      } catch {
        return errorReply(id: id, method: method, error)
      }
    }
  }

  private func runRequest(id: JSONValue, method: String, params: JSONValue?, token: CancellationToken) throws
    -> JSONValue
  {
    if shutdownRequested.load(ordering: .acquiring) {
      throw RPCError.invalidRequest("the server is shutting down (shutdown was received)")
    }
    if method == "shutdown" {
      shutdownRequested.store(true, ordering: .releasing)
      return .null
    }
    guard let handler = registry[method] else { throw RPCError.methodNotFound(method) }
    try token.check()
    let result = try handler.handler(context(id: id, method: method, params: params, token: token))
    // A cancel that arrived while the handler worked wins: the host has stopped waiting for a result.
    try token.check()
    return result
  }

  private func runNotification(_ method: String, _ params: JSONValue?) {
    switch method {
    case "exit":
      exitFlag.store(true, ordering: .releasing)
    case "$/cancelRequest":
      if let id = params?["id"] { cancel(id) }
    default:
      // After `shutdown` nothing may change the store, and a notification has no reply to refuse it with.
      if shutdownRequested.load(ordering: .acquiring) {
        logger.debug("notification \(method) ignored: the server is shutting down")
        return
      }
      guard let handler = registry[method] else {
        logger.debug("notification \(method) ignored: no such method")
        return
      }
      do {
        _ = try handler.handler(context(id: nil, method: method, params: params, token: .inline))
      } catch {
        logger.debug("notification \(method) failed: \(RPCError(error).message)")
      }
    }
  }

  private func context(id: JSONValue?, method: String, params: JSONValue?, token: CancellationToken)
    -> RequestContext
  {
    RequestContext(
      id: id, method: method, params: Params(params), cancellation: token,
      notify: { [writer] method, params in writer.send(Response.notification(method, params)) }, logger: logger)
  }

  // MARK: - In-flight work and cancellation

  private func track(_ id: JSONValue, _ token: CancellationToken, answersAlone: Bool) {
    lock.withLock {
      inFlight[id] = token
      if answersAlone { answersAloneIDs.insert(id) } else { answersAloneIDs.remove(id) }
    }
  }

  private func untrack(_ id: JSONValue) {
    lock.withLock {
      inFlight.removeValue(forKey: id)
      answersAloneIDs.remove(id)
    }
  }

  /// Cancels an in-flight request; an id that is not in flight is ignored. A request still waiting
  /// for a worker thread is answered -32800 at once; one that has started answers when it notices.
  private func cancel(_ id: JSONValue) {
    let (token, alone) = lock.withLock { (inFlight[id], answersAloneIDs.contains(id)) }
    token?.cancel()
    if let token, alone, !token.hasStarted, token.claimReply() {
      writer.send(Response.error(id: id, .cancelled))
    }
    logger.debug("cancel \(id.jsonString): \(token == nil ? "not in flight" : "cancelled")")
  }

  /// Lets in-flight work finish for up to the drain timeout, then cancels what is left.
  private func finishInFlightWork() {
    if !serialLane.waitUntilIdle(seconds: configuration.drainTimeout)
      || !workers.waitUntilIdle(seconds: configuration.drainTimeout)
    {
      let tokens = lock.withLock { Array(inFlight.values) }
      logger.warn("cancelling \(tokens.count) request(s) still running at end of input")
      for token in tokens { token.cancel() }
      _ = serialLane.waitUntilIdle(seconds: 0.3)
      _ = workers.waitUntilIdle(seconds: 0.3)
    }
  }
}
