import JSON

/// Running one message: a request's outcome, a notification's effect.
extension Dispatcher {
  /// What running a message came to: its reply (nil for a notification, and for a request a cancel
  /// has answered already), or a write to run again once another process's lock may be free.
  enum Attempt {
    case answered(JSONValue?)
    case retry(RetryLater, RetryPatience)
  }

  /// Runs one message and returns its reply: nil for a notification, and for a request a cancel
  /// has answered already.
  func run(_ message: Incoming, token: CancellationToken?, out: any FrameSink) -> JSONValue? {
    guard case .answered(let reply) = attempt(message, token: token, out: out, patience: nil) else { return nil }
    return reply
  }

  /// Runs one message; with `patience` (a write in the scheduler), a request that has to wait for
  /// another process's lock comes back as `.retry`, unanswered.
  func attempt(_ message: Incoming, token: CancellationToken?, out: any FrameSink, patience: RetryPatience?)
    -> Attempt
  {
    switch message {
    case .invalid(let id, let error):
      return .answered(Response.error(id: id, error))
    case .notification(let method, let params):
      runNotification(method, params, out: out)
      return .answered(nil)
    case .response(let response):
      if let onResponse {
        onResponse(response)
      } else {
        logger.info("a response object was received and ignored: the server sends no requests")
      }
      return .answered(nil)
    case .request(let id, let method, let params):
      logger.debug("request \(method) id \(id.jsonString)")
      let request = context(
        id: id, method: method, params: params, token: token ?? .inline, out: out,
        lockPatience: patience?.now ?? .answersAtOnce)
      let outcome = Result { try handle(request) }
      if case .failure(let error as RetryLater) = outcome, let patience { return .retry(error, patience) }
      let pending = PendingReply(id: id, token: token, writer: writer)
      return .answered(pending.answer(outcome.mapError { failure($0, method) }))
    }
  }

  /// Starts a deferred request on the reader; it is in flight (and cancellable) until its handler
  /// answers through the `Reply`, from whichever thread finishes it. No thread waits meanwhile.
  func runDeferred(id: JSONValue, method: String, params: JSONValue?, _ start: Method.DeferredHandler) {
    let token = CancellationToken()
    token.markStarted()
    inFlight.track(id, token, answersAlone: true)
    runDeferred(id: id, method: method, params: params, token: token, start) { [self] in
      if let reply = $0 { sendSingle(reply) }
    }
  }

  /// Starts a deferred request whose `token` is in flight already (a batch member's); `deliver`
  /// gets its reply, or nil when a cancel has answered it, from whichever thread answers.
  func runDeferred(
    id: JSONValue, method: String, params: JSONValue?, token: CancellationToken, _ start: Method.DeferredHandler,
    deliver: @escaping @Sendable (JSONValue?) -> Void
  ) {
    deferred.enter()
    attemptDeferred(id: id, method: method, params: params, token: token, patience: nil, start) { [self] attempt in
      defer {
        inFlight.untrack(id)
        deferred.leave()
      }
      guard case .answered(let reply) = attempt else { return deliver(nil) }
      deliver(reply)
    }
  }

  /// Starts a deferred request; `deliver` gets what it came to, from whichever thread answers: its
  /// reply, or, with `patience` (a write in the scheduler), a write to run again once another process's
  /// lock may be free.
  /// A nil `token`: run where a cancel cannot be read meanwhile (the reading thread).
  func attemptDeferred(
    id: JSONValue, method: String, params: JSONValue?, token: CancellationToken?, patience: RetryPatience?,
    _ start: Method.DeferredHandler, deliver: @escaping @Sendable (Attempt) -> Void
  ) {
    logger.debug("request \(method) id \(id.jsonString), answered later")
    if lifecycle.isShuttingDown {
      let refusal = PendingReply(id: id, token: token, writer: writer)
      return deliver(
        .answered(refusal.answer(.failure(.invalidRequest("the server is shutting down (shutdown was received)")))))
    }
    let request = context(
      id: id, method: method, params: params, token: token ?? .inline, out: writer,
      lockPatience: patience?.now ?? .answersAtOnce)
    start(
      request,
      Reply { [self] outcome in
        if case .failure(let error as RetryLater) = outcome, let patience { return deliver(.retry(error, patience)) }
        // A cancel that arrived while the work went on wins, as for every other request.
        let checked = outcome.flatMap { result in Result { try request.cancellation.check() }.map { result } }
        let pending = PendingReply(id: id, token: token, writer: writer)
        deliver(.answered(pending.answer(checked.mapError { failure($0, method) })))
      })
  }

  private func handle(_ request: RequestContext) throws -> JSONValue {
    if lifecycle.isShuttingDown { throw RPCError.invalidRequest("the server is shutting down (shutdown was received)") }
    guard case .immediate(let handler)? = registry[request.method]?.body else {
      // Deferred methods are started where they are placed (`runDeferred`, `attemptDeferred`).
      throw RPCError.methodNotFound(request.method)
    }
    try request.cancellation.check()
    let result = try handler(request)
    // A cancel that arrived while the handler worked wins: the host has stopped waiting for a result.
    try request.cancellation.check()
    return result
  }

  private func failure(_ error: any Error, _ method: String) -> RPCError {
    let rpcError = RPCError(error)
    if rpcError.code == .internalError { logger.error("\(method) failed: \(rpcError.data?.jsonString ?? "")") }
    return rpcError
  }

  private func runNotification(_ method: String, _ params: JSONValue?, out: any FrameSink) {
    // After `shutdown` nothing may change the store, and a notification has no reply to refuse it with.
    if lifecycle.isShuttingDown, !Lifecycle.names.contains(method) {
      logger.debug("notification \(method) ignored: the server is shutting down")
      return
    }
    guard let handler = registry[method] else {
      logger.debug("notification \(method) ignored: no such method")
      return
    }
    let request = context(id: nil, method: method, params: params, token: .inline, out: out)
    if case .deferred(let start) = handler.body {
      // Nobody waits for a notification's outcome, so nothing waits for it here either.
      return start(request, Reply { _ in })
    }
    guard case .immediate(let run) = handler.body else { return }
    do {
      _ = try run(request)
    } catch {
      logger.debug("notification \(method) failed: \(RPCError(error).message)")
    }
  }

  /// What a handler gets; its notifications go to `out` (held with its reply when run on the reader).
  private func context(
    id: JSONValue?, method: String, params: JSONValue?, token: CancellationToken, out: any FrameSink,
    lockPatience: LockPatience = .answersAtOnce
  ) -> RequestContext {
    RequestContext(
      id: id, method: method, params: Params(params), cancellation: token,
      notify: { method, params in out.send(Response.notification(method, params)) }, logger: logger,
      lockPatience: lockPatience)
  }
}
