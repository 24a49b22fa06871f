import Foundation
import JSON
import JSONRPC

#if canImport(Glibc)
  import Glibc
#endif

/// The server on standard input and output with LSP's `Content-Length` framing (the same reader and
/// writer the JSON-RPC server uses). A reader thread reads frames and takes `$/cancelRequest` at
/// once; the messages are handled in order on the calling thread, a cancelled request answered
/// with RequestCancelled.
public enum StdioTransport {
  /// Serves until `exit` or the end of input; returns the exit code LSP gives.
  public static func serve(input: Int32, output: Int32, linter: @escaping DocumentLinter) -> Int32 {
    let writer = OutputWriter(fd: output)
    writer.use(.lsp)
    let server = LanguageServer(linter: linter) { writer.send($0) }
    let inbox = Inbox()
    Thread.detachNewThread { read(input, into: inbox) }
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

  /// Messages read and not yet handled, with the ids cancelled meanwhile.
  final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [JSONValue] = []
    private var cancelled = Set<String>()
    private var closed = false

    func put(_ message: JSONValue) {
      condition.withLock {
        if message["method"]?.stringValue == "$/cancelRequest", let id = message["params"]?["id"] {
          cancelled.insert(id.jsonString)
        } else {
          messages.append(message)
        }
        condition.signal()
      }
    }

    func close() {
      condition.withLock {
        closed = true
        condition.signal()
      }
    }

    func take() -> (JSONValue, Bool)? {
      condition.lock()
      defer { condition.unlock() }
      while messages.isEmpty {
        if closed { return nil }
        condition.wait()
      }
      let message = messages.removeFirst()
      let wasCancelled = message["id"].map { cancelled.remove($0.jsonString) != nil } ?? false
      return (message, wasCancelled)
    }
  }
}
