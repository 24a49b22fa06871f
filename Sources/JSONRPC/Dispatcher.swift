import JSON

/// Runs the messages of each frame and answers every request exactly once.
///
/// `inline` methods run on the reader, in arrival order; a frame with a `background` method runs
/// off the reader (`WorkerPool`), so the reader keeps reading and can deliver `$/cancelRequest`
/// while it works. Each request's reply is a `PendingReply`, consumed by the one path that answers.
final class Dispatcher: Sendable {
  private let registry: MethodRegistry
  private let writer: OutputWriter
  private let logger: Logger
  private let lifecycle: Lifecycle
  private let inFlight: InFlight
  /// Background requests: at most 16 run at once, the rest wait their turn in arrival order.
  private let workers = WorkerPool(limit: 16)

  /// Serves `registry` and the lifecycle's own methods, with cancellation as `cancelling` says.
  init(
    registry: MethodRegistry, lifecycle: Lifecycle, cancelling: Connection.Configuration, writer: OutputWriter,
    logger: Logger
  ) {
    let inFlight = InFlight()
    var registry = registry
    let answers = cancelling.answersCancelled
    for method in lifecycle.methods(
      notification: cancelling.cancelNotification,
      cancel: { id in
        let found = inFlight.cancel(id, writer: answers ? writer : nil)
        logger.debug("cancel \(id.jsonString): \(found ? "cancelled" : "not in flight")")
      })
    {
      registry.register(method)
    }
    self.registry = registry
    self.lifecycle = lifecycle
    self.inFlight = inFlight
    self.writer = writer
    self.logger = logger
  }

  /// Runs the messages of one frame: inline when every method is quick, otherwise all of them off
  /// the reader. A batch gets one array reply, and none when every member was a notification.
  func dispatch(_ messages: [Incoming], asBatch: Bool) {
    let needsBackground = messages.contains { message in
      switch message {
      case .request(_, let method, let params), .notification(let method, let params):
        return registry[method]?.placement(params) == .background
      case .invalid, .response: return false
      }
    }
    guard needsBackground else {
      reply(messages.map { run($0, token: nil) }, asBatch: asBatch)
      return
    }
    let tokens = messages.map { message -> CancellationToken? in
      guard case .request(let id, _, _) = message else { return nil }
      let token = CancellationToken()
      inFlight.track(id, token, answersAlone: !asBatch)
      return token
    }
    workers.submit { [self] in
      let replies = zip(messages, tokens).map { message, token -> JSONValue? in
        token?.markStarted()
        defer { if case .request(let id, _, _) = message { inFlight.untrack(id) } }
        return run(message, token: token)
      }
      reply(replies, asBatch: asBatch)
    }
  }

  /// Lets work off the reader finish for up to `seconds`, then cancels what is left.
  func finish(within seconds: Double) {
    guard !workers.waitUntilIdle(seconds: seconds) else { return }
    logger.warn("cancelling \(inFlight.cancelAll()) request(s) still running at end of input")
    _ = workers.waitUntilIdle(seconds: 0.3)
  }

  private func reply(_ replies: [JSONValue?], asBatch: Bool) {
    let sent = replies.compactMap { $0 }
    if asBatch {
      if !sent.isEmpty { writer.send(.array(sent)) }
    } else if let only = sent.first {
      writer.send(only)
    }
  }

  /// Runs one message and returns its reply: nil for a notification, and for a request a cancel
  /// has answered already.
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
      let pending = PendingReply(id: id, token: token, writer: writer)
      return pending.answer(outcome(id: id, method: method, params: params, token: token ?? .inline))
    }
  }

  private func outcome(id: JSONValue, method: String, params: JSONValue?, token: CancellationToken)
    -> Result<JSONValue, RPCError>
  {
    do {
      if lifecycle.isShuttingDown {
        throw RPCError.invalidRequest("the server is shutting down (shutdown was received)")
      }
      guard let handler = registry[method] else { throw RPCError.methodNotFound(method) }
      try token.check()
      let result = try handler.handler(context(id: id, method: method, params: params, token: token))
      // A cancel that arrived while the handler worked wins: the host has stopped waiting for a result.
      try token.check()
      return .success(result)
    } catch {
      let rpcError = RPCError(error)
      if rpcError.code == .internalError { logger.error("\(method) failed: \(rpcError.data?.jsonString ?? "")") }
      return .failure(rpcError)
    }
  }

  private func runNotification(_ method: String, _ params: JSONValue?) {
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

  private func context(id: JSONValue?, method: String, params: JSONValue?, token: CancellationToken)
    -> RequestContext
  {
    RequestContext(
      id: id, method: method, params: Params(params), cancellation: token,
      notify: { [writer] method, params in writer.send(Response.notification(method, params)) }, logger: logger)
  }
}
