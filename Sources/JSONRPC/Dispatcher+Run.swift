import JSON
import Posix

/// Running one message: a request's outcome, a notification's effect.
extension Dispatcher {
  /// What running a message came to: its reply (nil for a notification, and for a request a cancel
  /// has answered already), or a busy write's wait, after which it runs again.
  enum Attempt {
    case answered(JSONValue?)
    case waits(@Sendable (_ resume: @escaping @Sendable () -> Void) -> Void)
  }

  /// Runs one message and returns its reply: nil for a notification, and for a request a cancel
  /// has answered already.
  func run(_ message: Incoming, token: CancellationToken?, out: any FrameSink) -> JSONValue? {
    guard case .answered(let reply) = attempt(message, token: token, out: out, patience: nil) else { return nil }
    return reply
  }

  /// Runs one message; with `patience` (a write in the scheduler), a write that comes back busy
  /// comes back as `.waits`, unanswered, while its patience lasts (`Scheduler.Step.after`).
  func attempt(_ message: Incoming, token: CancellationToken?, out: any FrameSink, patience: Patience?)
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
      let request = context(id: id, method: method, params: params, token: token ?? .inline, out: out)
      var outcome: Result<JSONValue, any Error>?
      let step = Scheduler.Step.after(handle(request), patience) { outcome = $0 }
      guard let outcome else {
        guard case .waits(let wait) = step else { return .answered(nil) }
        return .waits(wait)
      }
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
    attemptDeferred(id: id, method: method, params: params, token: token, start) { [self] reply in
      defer {
        inFlight.untrack(id)
        deferred.leave()
      }
      deliver(reply)
    }
  }

  /// Starts a deferred request; `deliver` gets its reply (nil when a cancel has answered it), from
  /// whichever thread answers. A nil `token`: run where a cancel cannot be read meanwhile (the
  /// reading thread).
  func attemptDeferred(
    id: JSONValue, method: String, params: JSONValue?, token: CancellationToken?, _ start: Method.DeferredHandler,
    deliver: @escaping @Sendable (JSONValue?) -> Void
  ) {
    logger.debug("request \(method) id \(id.jsonString), answered later")
    if lifecycle.isShuttingDown {
      let refusal = PendingReply(id: id, token: token, writer: writer)
      return deliver(refusal.answer(.failure(.invalidRequest("the server is shutting down (shutdown was received)"))))
    }
    let request = context(id: id, method: method, params: params, token: token ?? .inline, out: writer)
    start(
      request,
      Reply { [self] outcome in
        // A cancel that arrived while the work went on wins, as for every other request.
        let checked = outcome.flatMap { result in Result { try request.cancellation.check() }.map { result } }
        let pending = PendingReply(id: id, token: token, writer: writer)
        deliver(pending.answer(checked.mapError { failure($0, method) }))
      })
  }

  /// Runs an immediate or write method: its result, or a write's `busy`.
  private func handle(_ request: RequestContext) -> WriteAttempt<JSONValue> {
    if lifecycle.isShuttingDown {
      return .done(.failure(RPCError.invalidRequest("the server is shutting down (shutdown was received)")))
    }
    // A cancel that arrived before it started, or while the handler worked, wins: the host has
    // stopped waiting for a result.
    do { try request.cancellation.check() } catch { return .done(.failure(error)) }
    let attempt: WriteAttempt<JSONValue>
    switch registry[request.method]?.body(for: request.params.raw) {
    case .immediate(let handler)?: attempt = .done(Result { try handler(request) })
    case .write(let handler)?: attempt = handler(request)
    case .deferred?, nil:
      // Deferred methods are started where they are placed (`runDeferred`, `attemptDeferred`).
      return .done(.failure(RPCError.methodNotFound(request.method)))
    }
    guard case .done(.success) = attempt else { return attempt }
    do { try request.cancellation.check() } catch { return .done(.failure(error)) }
    return attempt
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
    let body = handler.body(for: params)
    if case .deferred(let start) = body {
      // Nobody waits for a notification's outcome, so nothing waits for it here either.
      return start(request, Reply { _ in })
    }
    let outcome: Result<JSONValue, any Error>
    switch body {
    case .immediate(let run): outcome = Result { try run(request) }
    case .write(let run):
      guard case .done(let result) = run(request) else {
        return logger.debug("notification \(method): the store is busy")
      }
      outcome = result
    case .deferred: return
    }
    if case .failure(let error) = outcome { logger.debug("notification \(method) failed: \(RPCError(error).message)") }
  }

  /// What a handler gets; its notifications go to `out` (held with its reply when run on the reader).
  private func context(
    id: JSONValue?, method: String, params: JSONValue?, token: CancellationToken, out: any FrameSink
  ) -> RequestContext {
    RequestContext(
      id: id, method: method, params: Params(params), cancellation: token,
      notify: { method, params in out.send(Response.notification(method, params)) }, logger: logger,
      writes: writeJobs)
  }
}
