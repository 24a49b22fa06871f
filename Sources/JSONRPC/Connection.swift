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
/// whatever the host sends: frames handed off the reader hold at most twice the frame limit of
/// input (`ReaderGate`), batches hold at most `maxReplyBytes` of encoded replies
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
    /// The notification that cancels a request, and the member of its params that names it.
    public var cancelNotification = (method: "$/cancelRequest", idMember: "id")
    /// Whether a cancelled request is still answered -32800 (LSP) or left unanswered (MCP).
    public var answersCancelled = true
    /// Runs on the reader when input ends, before in-flight work is drained: long-lived requests
    /// (subscription streams) end here rather than waiting out the drain timeout.
    public var onEndOfInput: (@Sendable () -> Void)?
    /// Gets every frame's body as it is read (`--trace`); the writer's own tracer gets the replies.
    public var tracer: Tracer?
    /// A face that sends requests of its own (the LSP's `workspace/configuration`) gets the host's
    /// responses here, in arrival order among the messages; nil: they are ignored.
    public var onResponse: (@Sendable (JSONValue) -> Void)?
    /// Runs when `shutdown` is accepted, before it is answered: a face stops its own timers.
    public var onShutdown: (@Sendable () -> Void)?
    /// Runs on the reader when a frame over `maxFrameBytes` is skipped (after its -32600), with the
    /// limit, the frame's size when its header said it and the head of its body that had arrived
    /// (`FrameReader.skippedHead`): the LSP face tells the editor's user, and which document.
    public var onTooLarge: (@Sendable (_ limit: Int, _ size: Int?, _ head: [UInt8]) -> Void)?

    public init(framing: Framing? = nil) { self.framing = framing }
  }

  /// Methods that change the connection's own lifecycle, registered by the connection itself.
  public static let lifecycleMethods = Lifecycle.names

  let configuration: Configuration
  let writer: OutputWriter
  let logger: Logger
  let lifecycle = Lifecycle()
  let dispatcher: Dispatcher
  // Unchecked Sendable: these belong to the thread that reads.
  var reader: FrameReader
  private var framingAnnounced = false

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

  /// Reads `input` until end of file or `exit`, then finishes in-flight work; returns the exit code.
  public func serve(input: Int32) -> Int32 {
    writer.limitPatience(seconds: configuration.outputPatience)
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
        }
        configuration.onEndOfInput?()
        break
      }
      chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
      handleFrames()
    }
    return finish()
  }

  /// `exit` has been read: the host wants the process gone (what it leaves unread, it does not want).
  public var exitRequested: Bool { lifecycle.exitRequested }

  /// The code the process leaves with when the session ends now (`Lifecycle.exitCode`).
  public var exitCode: Int32 { lifecycle.exitCode }

  /// Handles bytes as they arrive: every complete frame in them is answered before this returns
  /// (or handed to a worker). Call it from one thread only: the reader.
  public func receive(_ bytes: UnsafeRawBufferPointer) {
    reader.append(bytes)
    handleFrames()
  }

  /// Handles the complete frames read.
  private func handleFrames() {
    while !lifecycle.exitRequested, let event = reader.next() {
      dispatcher.gate.pass(holding: 0)
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

  /// Ends the session: lets in-flight work finish (or cancels it), writes every reply owed,
  /// flushes the log, and returns the exit code.
  public func finish() -> Int32 {
    dispatcher.finish(within: configuration.drainTimeout)
    writer.flush()
    logger.flush()
    return lifecycle.exitCode
  }
}
