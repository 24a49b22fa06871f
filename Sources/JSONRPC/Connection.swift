import Dispatch
import JSON
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Serves JSON-RPC 2.0 over a pair of file descriptors until end of input or `exit`.
///
/// Three parts: reading (this file and `Connection+Frames`: bytes into frames into messages, on
/// the reader thread), dispatch (`Dispatcher`: each message run where its method runs, each
/// request answered once) and the lifecycle (`Lifecycle`: `shutdown`, `exit`, `$/cancelRequest`,
/// registered as methods). Replies go out through the one `OutputWriter`. Memory is bounded
/// whatever the host sends: frames in flight on workers hold at most twice the frame limit of
/// input (`InputBacklog`), batches hold at most `maxReplyBytes` of encoded replies
/// (`ReplyBudget`), and no single reply is larger.
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
    /// How long the host may take none of the output waiting for it before it is given up on: the
    /// replies still owed are dropped and the process leaves (docs/protocol.md). A host that reads,
    /// however slowly, gets every reply, at end of input too. It holds while serving as well: a
    /// host that stops reading blocks the reader (replies answered there wait to be written), which
    /// then could not even see the end of input.
    public var outputPatience = 30.0
    /// True when a write now would find the store's writer free: a single write then runs on the
    /// reading thread, without a hand-off to the write lane's.
    public var writerIsFree: @Sendable () -> Bool = { true }
    /// The notification that cancels a request, and the member of its params that names it.
    public var cancelNotification = (method: "$/cancelRequest", idMember: "id")
    /// Whether a cancelled request is still answered -32800 (LSP) or left unanswered (MCP).
    public var answersCancelled = true
    /// Runs on the reader when input ends, before in-flight work is drained: long-lived requests
    /// (subscription streams) end here rather than waiting out the drain timeout.
    public var onEndOfInput: (@Sendable () -> Void)?
    /// Gets every frame's body as it is read (`--trace`); the writer's own tracer gets the replies.
    public var tracer: Tracer?

    public init(framing: Framing? = nil) { self.framing = framing }
  }

  /// Methods that change the connection's own lifecycle, registered by the connection itself.
  public static let lifecycleMethods = Lifecycle.names

  let configuration: Configuration
  let writer: OutputWriter
  let logger: Logger
  let lifecycle = Lifecycle()
  let dispatcher: Dispatcher
  // Unchecked Sendable: these belong to the thread that holds the reading (`ReadingTurn`).
  var reader: FrameReader
  private var framingAnnounced = false
  private let turns = ReadingTurns()
  private let served = DispatchSemaphore(value: 0)

  public init(configuration: Configuration, registry: MethodRegistry, writer: OutputWriter, logger: Logger) {
    self.configuration = configuration
    self.writer = writer
    self.logger = logger
    dispatcher = Dispatcher(
      registry: registry, lifecycle: lifecycle, configuration: configuration, writer: writer, logger: logger)
    reader = FrameReader(framing: configuration.framing, maxFrameBytes: configuration.maxFrameBytes)
  }

  /// Sends a notification to the host (handlers reach this through `RequestContext.notify`).
  public func notify(_ method: String, _ params: JSONValue) {
    writer.send(Response.notification(method, params))
  }

  /// The store's writer started (true) or stopped (false) waiting for another process's lock:
  /// reads queued behind the write lane go ahead meanwhile (see `Method.Execution.read`). A write
  /// running on the reading thread keeps that thread while it waits, so reading moves to a new one.
  public func writerWaits(_ waiting: Bool) {
    dispatcher.writeLane.writerWaits(waiting)
    guard waiting, dispatcher.writeLane.runsHere, let next = turns.handOver() else { return }
    Threads.start { [self] in serveInput(holding: next) }
  }

  /// Reads `input` until end of file or `exit`, then finishes in-flight work; returns the exit code.
  public func serve(input: Int32) -> Int32 {
    writer.limitPatience(seconds: configuration.outputPatience)
    serveInput(holding: turns.first(input: input))
    served.wait()
    return lifecycle.exitCode
  }

  /// Reads while `turn` holds the reading; the turn that meets the end of input ends the session.
  private func serveInput(holding turn: ReadingTurn) {
    let input = turn.input
    // A turn handed over continues with the frames its predecessor had read but not handled.
    guard handleFrames(holding: turn) else { return }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while !lifecycle.exitRequested {
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
          guard turn.holds else { return }
        }
        configuration.onEndOfInput?()
        break
      }
      chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
      guard handleFrames(holding: turn) else { return }
    }
    _ = finish()
    served.signal()
  }

  /// Handles bytes as they arrive: every complete frame in them is answered before this returns
  /// (or handed to a worker). Call it from one thread only: the reader.
  public func receive(_ bytes: UnsafeRawBufferPointer) {
    reader.append(bytes)
    _ = handleFrames(holding: nil)
  }

  /// Handles the complete frames read; false when `turn` handed the reading over meanwhile.
  private func handleFrames(holding turn: ReadingTurn?) -> Bool {
    while !lifecycle.exitRequested, let event = reader.next() {
      announceFraming()
      handle(event)
      if let turn, !turn.holds { return false }
    }
    return true
  }

  /// Replies go out in the framing the host's input was read in, from the first reply on.
  private func announceFraming() {
    guard !framingAnnounced, let framing = reader.framing else { return }
    writer.use(framing)
    framingAnnounced = true
    logger.debug("framing: \(framing.rawValue)")
  }

  /// Ends the session: lets in-flight work finish (or cancels it), writes every reply owed,
  /// flushes the log, and returns the exit code.
  public func finish() -> Int32 {
    dispatcher.finish(within: configuration.drainTimeout)
    logger.flush()
    return lifecycle.exitCode
  }
}
