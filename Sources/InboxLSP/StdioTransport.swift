import Dispatch
import JSON
import JSONRPC
import Posix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The server on standard input and output with LSP's `Content-Length` framing (the same reader and
/// writer the JSON-RPC server uses). The calling thread reads frames and takes `$/cancelRequest`
/// at once; the messages are handled in order on a queue of their own, a cancelled request
/// answered with RequestCancelled. No thread waits for a message: the queue is given each as it is
/// read.
public enum StdioTransport {
  /// Serves until `exit` or the end of input; returns the exit code LSP gives.
  public static func serve(input: Int32, output: Int32, linter: DocumentLinter, rulesPage: String?) -> Int32 {
    let writer = OutputWriter(fd: output)
    writer.use(.lsp)
    let server = LanguageServer(linter: linter, rulesPage: rulesPage) { writer.send($0) }
    let cancelled = CancelledRequests()
    let handling = DispatchQueue(label: "inbox-rpc.lsp")
    read(input) { message in
      guard !cancelled.note(message) else { return }
      handling.async {
        server.handle(message, cancelled: cancelled.take(message["id"]))
        // `exit`: the process leaves with the code LSP gives, the reader still waiting for input.
        if let code = server.exitCode {
          writer.flush()
          Glibc.exit(code)
        }
      }
    }
    // The end of input: what was read is handled, and its replies written.
    handling.sync {}
    writer.flush()
    return server.exitCode ?? 1  // the input ended without `exit`
  }

  private static func read(_ fd: Int32, _ deliver: (JSONValue) -> Void) {
    var reader = FrameReader(framing: .lsp)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      while let event = reader.next() {
        guard case .frame(let body) = event, let message = try? JSONValue.parse(bytes: body) else { continue }
        deliver(message)
      }
    }
  }

  /// The ids `$/cancelRequest` named, read ahead of the requests they name.
  final class CancelledRequests: Sendable {
    private let ids = Mutex(Set<String>())

    /// True for a `$/cancelRequest`, whose id is kept: it is not handled as a message.
    func note(_ message: JSONValue) -> Bool {
      guard message["method"]?.stringValue == "$/cancelRequest" else { return false }
      if let id = message["params"]?["id"] { ids.withLock { _ = $0.insert(id.jsonString) } }
      return true
    }

    /// True when the request `id` names was cancelled (once).
    func take(_ id: JSONValue?) -> Bool {
      guard let id else { return false }
      return ids.withLock { $0.remove(id.jsonString) != nil }
    }
  }
}
