import Dispatch
import JSONRPC
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// What `replay` hears from its child server, on a queue of its own: each NDJSON frame the child
/// writes, then the end of its output, and its exit status. Its stdout is drained by a Dispatch
/// read source as the bytes come, whatever the consumer is doing: a server writing replies while
/// `replay` still writes it frames never fills the pipe and stops, so neither side waits for the
/// other. What is read and not consumed yet waits in the consumer's queue: a server writes only
/// what the trace's frames ask of it.
///
/// The output ends when the child has exited (`ChildExit`) and the pipe is drained. Until then this
/// process holds a write end of the pipe itself, so the read end never hangs up: libdispatch's
/// epoll backend takes a hung-up source apart off its manager thread, racing the sources other
/// threads register (a crash); a source its owner cancels is taken apart on the manager thread.
final class ChildEvents: @unchecked Sendable {
  // Unchecked: every member but the constants is touched only on `queue`.

  enum Output: Sendable {
    case frame([UInt8])
    /// The child has exited and everything it wrote was handed on: nothing more comes.
    case end
  }

  private let queue = DispatchQueue(label: "inbox-rpc.replay.child")
  private let output: Int32
  private let heldWriteEnd: Int32
  /// True once the end was handed on; `closed` once the pipe's ends are.
  private var ended = false
  private var closed = false
  private var source: (any DispatchSourceRead)?
  private var emit: ((Output) -> Void)?
  private var reader = FrameReader(framing: .ndjson)
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  private var status: Int32?
  private var exitWaiters: [@Sendable (Int32) -> Void] = []

  /// `output`: the pipe's read end; `writeEnd`: this process's copy of its write end. Both are ours
  /// to close.
  init(pid: pid_t, output: Int32, writeEnd: Int32) {
    self.output = output
    heldWriteEnd = writeEnd
    _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    ChildExit.whenExited(pid, on: queue) { [self] status in exited(status) }
  }

  deinit {
    if !closed {
      close(output)
      close(heldWriteEnd)
    }
  }

  /// Starts draining the output: `handle` runs on `queue` with each frame, in order, then with the
  /// end. Called once.
  func read(to queue: DispatchQueue, _ handle: @escaping @Sendable (Output) -> Void) {
    self.queue.async { [self] in
      precondition(emit == nil, "the child's output is read once")
      emit = { output in queue.async { handle(output) } }
      guard status == nil else { return finish() }
      let source = DispatchSource.makeReadSource(fileDescriptor: output, queue: self.queue)
      source.setEventHandler { [self] in drain() }
      source.setCancelHandler { [self] in closeEnds() }
      self.source = source
      source.resume()
    }
  }

  /// Calls `exited` on `queue` with the child's exit status once it has exited and been reaped
  /// (at once if it has).
  func whenExited(on queue: DispatchQueue, _ exited: @escaping @Sendable (Int32) -> Void) {
    self.queue.async { [self] in
      let exited: @Sendable (Int32) -> Void = { status in queue.async { exited(status) } }
      if let status { exited(status) } else { exitWaiters.append(exited) }
    }
  }

  private func exited(_ status: Int32) {
    self.status = status
    // Everything the child wrote is in the pipe now: read to its end.
    if emit != nil { finish() }
    for waiter in exitWaiters { waiter(status) }
    exitWaiters = []
  }

  /// Reads what the pipe holds now, handing on each complete frame.
  private func drain() {
    guard !ended, let emit else { return }
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      // Only frames are replies: a line past the frame limit is none.
      while let event = reader.next() {
        if case .frame(let bytes) = event { emit(.frame(bytes)) }
      }
    }
  }

  /// After the exit: the rest of the output, its last line even without a newline, then the end.
  private func finish() {
    guard !ended, let emit else { return }
    drain()
    ended = true
    if case .frame(let bytes)? = reader.finish() { emit(.frame(bytes)) }
    emit(.end)
    if let source {
      source.cancel()
    } else {
      closeEnds()
    }
  }

  private func closeEnds() {
    guard !closed else { return }
    closed = true
    close(output)
    close(heldWriteEnd)
  }
}
