import Dispatch
import JSON
import JSONRPC
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The server on standard input and output with LSP's `Content-Length` framing (the same reader and
/// writer the JSON-RPC server uses). A reader thread reads frames and takes `$/cancelRequest` at
/// once; the messages are handled in order on the calling thread, a cancelled request answered
/// with RequestCancelled.
public enum StdioTransport {
  /// Serves until `exit` or the end of input; returns the exit code LSP gives.
  public static func serve(input: Int32, output: Int32, linter: @escaping DocumentLinter, rulesPage: String?) -> Int32 {
    let writer = OutputWriter(fd: output)
    writer.use(.lsp)
    let server = LanguageServer(linter: linter, rulesPage: rulesPage) { writer.send($0) }
    let inbox = Inbox()
    Threads.start { read(input, into: inbox) }
    defer { writer.flush() }
    while let (message, cancelled) = inbox.take() {
      server.handle(message, cancelled: cancelled)
      if let code = server.exitCode { return code }
    }
    return 1  // the input ended without `exit`
  }

  private static func read(_ fd: Int32, into inbox: Inbox) {
    var reader = FrameReader(framing: .lsp)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      while let event = reader.next() {
        guard case .frame(let body) = event, let message = try? JSONValue.parse(bytes: body) else { continue }
        inbox.put(message)
      }
    }
    inbox.close()
  }

  /// Messages read and not yet handled, with the ids cancelled meanwhile: the reader puts, the
  /// handling thread takes, a semaphore counting what there is to take (each message, and the end).
  final class Inbox: Sendable {
    private struct State {
      var messages: [JSONValue] = []
      var cancelled = Set<String>()
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    func put(_ message: JSONValue) {
      let queued = state.withLock { state -> Bool in
        if message["method"]?.stringValue == "$/cancelRequest", let id = message["params"]?["id"] {
          state.cancelled.insert(id.jsonString)
          return false
        }
        state.messages.append(message)
        return true
      }
      if queued { available.signal() }
    }

    /// The end of input: once the messages put before it are taken, `take` answers nil.
    func close() { available.signal() }

    func take() -> (JSONValue, Bool)? {
      available.wait()
      return state.withLock { state -> (JSONValue, Bool)? in
        guard !state.messages.isEmpty else { return nil }
        let message = state.messages.removeFirst()
        let wasCancelled = message["id"].map { state.cancelled.remove($0.jsonString) != nil } ?? false
        return (message, wasCancelled)
      }
    }
  }
}
