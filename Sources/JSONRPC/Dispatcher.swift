import Dispatch
import JSON
import Posix

/// Runs the messages of each frame where their methods run (`Scheduler`), and answers every
/// request once.
///
/// A single `read` or `write` request that the scheduler lets start at once runs on the reader,
/// with no hand-off: its notifications and reply leave in one write. One that must wait (a read
/// behind a write, a write behind another) is queued, and the reader reads on. A write that meets
/// another process's lock waits in the scheduler (`Scheduler.Step.after`), not on a thread; a deferred method
/// answers later (`Reply`), holding no thread meanwhile; `background` methods and every batch (a
/// batch may be a thousand heavy requests) run on workers, so the reader keeps reading (and answers
/// a ping, and delivers `$/cancelRequest`) while they work. Each request's reply is a
/// `PendingReply`, consumed by the one path that answers it.
final class Dispatcher: Sendable {
  let registry: MethodRegistry
  let writer: OutputWriter
  let logger: Logger
  let lifecycle: Lifecycle
  let inFlight: InFlight
  let replyBudget: ReplyBudget
  let scheduler = Scheduler()
  /// Where a request's write that is not its own is submitted: to `scheduler`, as a write.
  let writeJobs: WriteJobs
  /// Deferred requests not yet answered.
  let deferred = DispatchGroup()
  /// Where the reader waits between frames: input in flight, output unread.
  let gate: ReaderGate
  /// The notification that cancels a request: it waits for nothing (`Scheduler.Kind.immediate`).
  private let cancelMethod: String
  /// Gets the host's responses (`Connection.Configuration.onResponse`).
  let onResponse: (@Sendable (JSONValue) -> Void)?

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
    let methods = lifecycle.methods(
      notification: configuration.cancelNotification, onShutdown: configuration.onShutdown, cancel: cancel)
    for method in methods {
      registry.register(method)
    }
    self.registry = registry
    self.lifecycle = lifecycle
    self.inFlight = inFlight
    self.writer = writer
    self.logger = logger
    gate = ReaderGate(inputLimit: 2 * configuration.maxFrameBytes, output: writer)
    cancelMethod = configuration.cancelNotification.method
    onResponse = configuration.onResponse
    replyBudget = ReplyBudget(limit: configuration.maxReplyBytes)
    writeJobs = WriteJobs { [scheduler] job in scheduler.submit(.write, job) }
  }

  /// Runs the messages of one frame (`inputBytes` long). A batch gets one array reply, and none
  /// when every member was a notification.
  func dispatch(_ messages: [Incoming], asBatch: Bool, inputBytes: Int) {
    if messages.contains(where: { if case .request(_, "shutdown", _) = $0 { true } else { false } }) {
      lifecycle.noteShutdownRead()
    }
    let kind = asBatch ? .background : kind(of: messages[0])
    if runHere(kind, messages[0]) { return }
    let tokens = messages.map { message -> CancellationToken? in
      guard case .request(let id, _, _) = message else { return nil }
      let token = CancellationToken()
      inFlight.track(id, token, answersAlone: !asBatch)
      return token
    }
    gate.pass(holding: inputBytes)
    // A write may wait for another process's lock in the scheduler, and is run again after; other
    // work never waits so.
    let writes = kind == .write || (asBatch && messages.contains { self.kind(of: $0) == .write })
    let patience: Patience? = writes ? Patience() : nil
    let job: Scheduler.Job
    if asBatch {
      job = batchJob(messages, tokens: tokens, patience: patience) { [self] in gate.release(inputBytes) }
    } else {
      let attempt = attempting(messages[0], token: tokens[0], out: writer, patience: patience) { [self] in
        if case .request(let id, _, _) = messages[0] { inFlight.untrack(id) }
        gate.release(inputBytes)
      }
      // Started when it runs: until then a cancel answers it at once.
      job = {
        tokens[0]?.markStarted()
        return attempt()
      }
    }
    // A batch that writes keeps the writes' order and waits as a write does.
    scheduler.submit(writes ? .write : kind, job)
  }

  /// Where a message's method runs: a request or notification by its method's placement; anything
  /// else (an invalid message, a response) is answered as a read. `exit` waits for nothing either:
  /// queued behind work, it would be run after the reader went back to `read`, which then waits for
  /// input a host that said `exit` never sends; the drain lets the work before it finish.
  private func kind(of message: Incoming) -> Scheduler.Kind {
    switch message {
    case .notification(let method, _) where method == cancelMethod || method == "exit":
      .immediate
    case .request(_, let method, let params), .notification(let method, let params):
      switch registry[method]?.placement(params) {
      case .write?: .write
      case .background?: .background
      case .read?, nil: .read
      }
    case .invalid, .response: .read
    }
  }

  /// Runs a single read, write or cancel on the reader when the scheduler lets it start now; false
  /// (not run) otherwise, and always for background work (a batch too). Its notifications and its
  /// reply leave in one write. A write that has to wait for another process's lock after all waits
  /// in the scheduler, and reading goes on.
  private func runHere(_ kind: Scheduler.Kind, _ message: Incoming) -> Bool {
    switch kind {
    case .background:
      return false
    case .write:
      guard case .request = message else { return false }
      return writer.coalescing { held in
        scheduler.runHere(.write, attempting(message, token: nil, out: held, patience: Patience()) {})
      }
    case .read, .immediate:
      if case .request(let id, let name, let params) = message,
        case .deferred(let start)? = registry[name]?.body(for: params)
      {
        return scheduler.runHere(kind) { [self] in
          runDeferred(id: id, method: name, params: params, start)
          return .finished
        }
      }
      return writer.coalescing { held in
        scheduler.runHere(kind) { [self] in
          if let reply = run(message, token: nil, out: held) { sendSingle(reply, to: held) }
          return .finished
        }
      }
    }
  }

  /// A job that runs one message and writes its reply to `out`, then calls `finished`; with
  /// `patience`, a write that has to wait for another process's lock waits and is run again.
  private func attempting(
    _ message: Incoming, token: CancellationToken?, out: any FrameSink, patience: Patience?,
    finished: @escaping @Sendable () -> Void
  ) -> Scheduler.Job {
    let answer: @Sendable (JSONValue?) -> Scheduler.Step = { [self] reply in
      if let reply { sendSingle(reply, to: out) }
      finished()
      return .finished
    }
    // A deferred method answers later: its lane or worker is held by a callback, not a thread.
    if case .request(let id, let name, let params) = message,
      case .deferred(let start)? = registry[name]?.body(for: params)
    {
      return { [self] in
        .later { [self] next in
          attemptDeferred(id: id, method: name, params: params, token: token, start) { next(answer($0)) }
        }
      }
    }
    return { [self] in
      switch attempt(message, token: token, out: out, patience: patience) {
      case .waits(let wait): .waits(wait)
      case .answered(let reply): answer(reply)
      }
    }
  }

  /// A job that runs a batch's members in order, each answering the batch when it finishes (a
  /// deferred one starts and answers later); a member that waits for another process's lock is
  /// run again, and the members after it then, when the job runs again.
  private func batchJob(
    _ messages: [Incoming], tokens: [CancellationToken?], patience: Patience?,
    finished: @escaping @Sendable () -> Void
  ) -> Scheduler.Job {
    let answers = BatchAnswers(budget: replyBudget, count: messages.count) { [self] batch in
      batch.finish { writer.send(encoded: $0) }
      finished()
    }
    let next = BatchCursor()
    return { [self] in
      while next.index < messages.count {
        let (message, token) = (messages[next.index], tokens[next.index])
        token?.markStarted()
        if case .request(let id, let name, let params) = message, let token,
          case .deferred(let start)? = registry[name]?.body(for: params)
        {
          runDeferred(id: id, method: name, params: params, token: token, start) { answers.answer($0) }
          next.index += 1
          continue
        }
        switch attempt(message, token: token, out: writer, patience: patience) {
        case .waits(let wait):
          return .waits(wait)
        case .answered(let reply):
          if case .request(let id, _, _) = message { inFlight.untrack(id) }
          // Each member has a patience of its own.
          patience?.reset()
          next.index += 1
          answers.answer(reply)
        }
      }
      return .finished
    }
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
    scheduler.waitUntilIdle(until: deadline) && deferred.wait(timeout: deadline) == .success
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

/// The batch member a batch's job runs next (its job runs again after a member waited).
private final class BatchCursor: @unchecked Sendable {
  // Unchecked: used by one job at a time, as `Patience` is.
  var index = 0
}
