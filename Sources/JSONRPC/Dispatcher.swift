import Dispatch
import JSON

/// Runs the messages of each frame where their methods run, and answers every request once.
///
/// A single `read` request runs on the reader, after the writes before it (`WriteLane`); a
/// deferred one starts there and answers later (`Reply`), holding no thread meanwhile; `write`
/// ones run one at a time on the write lane (on the reading thread itself while the store's
/// writer is free; should it wait after all, reading moves to another thread); `background` methods and every batch (a batch may be
/// a thousand heavy requests) run on workers, so the reader keeps reading (and answers a ping, and
/// delivers `$/cancelRequest`) while they work. Each request's reply is a `PendingReply`, consumed
/// by the one path that answers it.
final class Dispatcher: Sendable {
  let registry: MethodRegistry
  let writer: OutputWriter
  let logger: Logger
  let lifecycle: Lifecycle
  let inFlight: InFlight
  let replyBudget: ReplyBudget
  /// Background requests: at most 16 run at once, the rest wait their turn in arrival order.
  private let workers = WorkerPool(limit: 16)
  let writeLane = WriteLane()
  /// Deferred requests not yet answered.
  let deferred = DispatchGroup()
  private let backlog: InputBacklog
  private let writerIsFree: @Sendable () -> Bool

  /// Serves `registry` and the lifecycle's own methods.
  init(
    registry: MethodRegistry, lifecycle: Lifecycle, configuration: Connection.Configuration, writer: OutputWriter,
    logger: Logger
  ) {
    let inFlight = InFlight()
    var registry = registry
    let answers = configuration.answersCancelled
    let cancel: @Sendable (JSONValue) -> Void = { id in
      let found = inFlight.cancel(id, writer: answers ? writer : nil)
      logger.debug("cancel \(id.jsonString): \(found ? "cancelled" : "not in flight")")
    }
    for method in lifecycle.methods(notification: configuration.cancelNotification, cancel: cancel) {
      registry.register(method)
    }
    self.registry = registry
    self.lifecycle = lifecycle
    self.inFlight = inFlight
    self.writer = writer
    self.logger = logger
    writerIsFree = configuration.writerIsFree
    backlog = InputBacklog(limit: 2 * configuration.maxFrameBytes)
    replyBudget = ReplyBudget(limit: configuration.maxReplyBytes)
  }

  /// Runs the messages of one frame (`inputBytes` long). A batch gets one array reply, and none
  /// when every member was a notification.
  func dispatch(_ messages: [Incoming], asBatch: Bool, inputBytes: Int) {
    // One look-up of each message's method says where it runs: whether the frame writes, and
    // whether it goes off the reader.
    var writes = false
    var background = asBatch
    for message in messages where !(writes && background) {
      switch message {
      case .request(_, let method, let params), .notification(let method, let params):
        switch registry[method]?.placement(params) {
        case .write?: writes = true
        case .background?: background = true
        case .read?, nil: break
        }
      case .invalid, .response: continue
      }
    }
    if writes, !background, case .request = messages[0], writeLane.isIdle, writerIsFree() {
      // The writer is free: the write runs here, on the lane, without a thread hand-off. Its
      // notifications and its reply leave in one write.
      return writer.coalescing { held in
        writeLane.runHere {
          if let only = run(messages[0], token: nil, out: held) { sendSingle(only, to: held) }
        }
      }
    }
    guard writes || background else {
      writeLane.awaitTurnForReads()
      if case .request(let id, let name, let params) = messages[0], case .deferred(let start)? = registry[name]?.body {
        return runDeferred(id: id, method: name, params: params, start)
      }
      writer.coalescing { held in
        if let only = messages.first.flatMap({ run($0, token: nil, out: held) }) { sendSingle(only, to: held) }
      }
      return
    }
    let tokens = messages.map { message -> CancellationToken? in
      guard case .request(let id, _, _) = message else { return nil }
      let token = CancellationToken()
      inFlight.track(id, token, answersAlone: !asBatch)
      return token
    }
    backlog.acquire(inputBytes)
    let job: @Sendable () -> Void = { [self] in
      guard asBatch else {
        defer { backlog.release(inputBytes) }
        let token = tokens[0]
        token?.markStarted()
        defer { if case .request(let id, _, _) = messages[0] { inFlight.untrack(id) } }
        if let reply = run(messages[0], token: token, out: writer) { sendSingle(reply) }
        return
      }
      // Each member answers the batch when it finishes; a deferred one starts and answers later.
      let answers = BatchAnswers(budget: replyBudget, count: messages.count) { [self] batch in
        batch.finish { writer.send(encoded: $0) }
        backlog.release(inputBytes)
      }
      for (message, token) in zip(messages, tokens) {
        token?.markStarted()
        if case .request(let id, let name, let params) = message, let token,
          case .deferred(let start)? = registry[name]?.body
        {
          runDeferred(id: id, method: name, params: params, token: token, start) { answers.answer($0) }
          continue
        }
        defer { if case .request(let id, _, _) = message { inFlight.untrack(id) } }
        answers.answer(run(message, token: token, out: writer))
      }
    }
    if writes { writeLane.submit(job) } else { workers.submit(job) }
  }

  /// Ends the session's work, once input has ended: what runs off the reader may finish for up to
  /// `seconds`, then what is left is cancelled; either way this returns only when every reply owed
  /// (a result, or -32800 for a cancelled request) has been written. Each method stops at a cancel
  /// or by its own time-out (a store lock's, the backend's), and the writer gives up only on a host
  /// that takes no output for the patience it was given (`OutputWriter.limitPatience`), so a
  /// reply however large reaches a host however slowly it reads.
  func finish(within seconds: Double) {
    guard !idle(until: .now() + seconds) else { return }
    logger.warn("cancelling \(inFlight.cancelAll()) request(s) still running at end of input")
    _ = idle(until: .distantFuture)
  }

  private func idle(until deadline: DispatchTime) -> Bool {
    writeLane.waitUntilIdle(until: deadline) && workers.waitUntilIdle(until: deadline)
      && deferred.wait(timeout: deadline) == .success
  }

  /// Writes a single reply, or -32600 in its place when it is larger than the reply limit.
  func sendSingle(_ reply: JSONValue, to out: any FrameSink) {
    let line = reply.serialized(terminatedBy: 0x0A)
    let size = line.count - 1
    guard size > replyBudget.limit else { return out.send(line: line) }
    out.send(Response.error(id: reply["id"] ?? .null, .replyTooLarge(size: size, limit: replyBudget.limit)))
  }

  func sendSingle(_ reply: JSONValue) { sendSingle(reply, to: writer) }
}
