import JSON

/// Running one message: a request's outcome, a notification's effect.
extension Dispatcher {
  /// Runs one message and returns its reply: nil for a notification, and for a request a cancel
  /// has answered already.
  func run(_ message: Incoming, token: CancellationToken?) -> JSONValue? {
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

  /// Runs a `serial` request on the reader; nil when its handler asked to move off it (the request
  /// is then still unanswered, and runs again on the lane).
  func runUnlessMoved(_ message: Incoming) -> JSONValue? {
    guard case .request(let id, let method, let params) = message else { return nil }
    do {
      let result = try handle(id: id, method: method, params: params, token: .inline)
      return PendingReply(id: id, token: nil, writer: writer).answer(.success(result))
    } catch is RunOffReader {
      return nil
    } catch {
      return PendingReply(id: id, token: nil, writer: writer).answer(.failure(failure(error, method)))
    }
  }

  private func outcome(id: JSONValue, method: String, params: JSONValue?, token: CancellationToken)
    -> Result<JSONValue, RPCError>
  {
    do {
      return .success(try handle(id: id, method: method, params: params, token: token))
    } catch {
      return .failure(failure(error, method))
    }
  }

  private func handle(id: JSONValue, method: String, params: JSONValue?, token: CancellationToken) throws
    -> JSONValue
  {
    if lifecycle.isShuttingDown { throw RPCError.invalidRequest("the server is shutting down (shutdown was received)") }
    guard let handler = registry[method] else { throw RPCError.methodNotFound(method) }
    try token.check()
    let result = try handler.handler(context(id: id, method: method, params: params, token: token))
    // A cancel that arrived while the handler worked wins: the host has stopped waiting for a result.
    try token.check()
    return result
  }

  private func failure(_ error: any Error, _ method: String) -> RPCError {
    let rpcError = RPCError(error)
    if rpcError.code == .internalError { logger.error("\(method) failed: \(rpcError.data?.jsonString ?? "")") }
    return rpcError
  }

  private func runNotification(_ method: String, _ params: JSONValue?) {
    // After `shutdown` nothing may change the store, and a notification has no reply to refuse it with.
    if lifecycle.isShuttingDown, !Lifecycle.names.contains(method) {
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

  private func context(id: JSONValue?, method: String, params: JSONValue?, token: CancellationToken)
    -> RequestContext
  {
    RequestContext(
      id: id, method: method, params: Params(params), cancellation: token,
      notify: { [writer] method, params in writer.send(Response.notification(method, params)) }, logger: logger)
  }
}
