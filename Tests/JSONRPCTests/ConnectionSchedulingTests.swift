import Dispatch
import Foundation
import JSON
import Synchronization
import Testing

@testable import JSONRPC

/// The scheduler seen from the wire: a read behind a running write is queued while the reader reads
/// on, and a cancel waits for nothing, so it reaches a request queued behind the write at once.
struct ConnectionSchedulingTests {
  /// A write that answers when the test says (it holds the writes' place meanwhile, as a callback).
  final class HeldWrite: Sendable {
    private let reply = Mutex<Reply?>(nil)
    let started = DispatchSemaphore(value: 0)

    var method: Method {
      Method("hold", placement: { _ in .write }) { [self] _, reply in
        self.reply.withLock { $0 = reply }
        started.signal()
      }
    }

    func release() { reply.withLock { $0 }?.succeed("released") }
  }

  /// What the server wrote, line by line, read on a thread of its own.
  final class Output: Sendable {
    private let lines = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)

    init(reading fd: Int32) {
      Thread {
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var pending = Data()
        while case let data = handle.availableData, !data.isEmpty {
          pending += data
          while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending = pending[(newline + 1)...]
            self.lines.withLock { $0.append(line) }
            self.arrived.signal()
          }
        }
      }.start()
    }

    /// Waits for a line holding `text`, under a deadline that only catches a hang.
    func await(_ text: String) -> Bool {
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline {
        if lines.withLock({ $0.contains { $0.contains(text) } }) { return true }
        _ = arrived.wait(timeout: .now() + 1)
      }
      return false
    }

    var all: [String] { lines.withLock { $0 } }
  }

  @Test func aCancelReachesARequestQueuedBehindARunningWrite() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let output = Output(reading: fds[0])
    let writer = OutputWriter(fd: fds[1])
    close(fds[1])
    let held = HeldWrite()
    var registry = MethodRegistry()
    registry.register(held.method)
    registry.register(Method("echo") { request in try request.params.value("value") ?? .null })
    let connection = Connection(
      configuration: Connection.Configuration(framing: .ndjson), registry: registry, writer: writer,
      logger: .silent())
    func send(_ line: String) { Array((line + "\n").utf8).withUnsafeBytes { connection.receive($0) } }

    send(#"{"jsonrpc":"2.0","id":1,"method":"hold"}"#)
    #expect(held.started.wait(timeout: .now() + 60) == .success)
    // Behind the running write: queued, and the reader reads on.
    send(#"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"value":"late"}}"#)
    send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
    #expect(output.await(#""id":2"#), "the cancel waited for the write")
    #expect(output.all.contains { $0.contains(#""id":2"#) && $0.contains("-32800") })
    #expect(!output.all.contains { $0.contains(#""id":1"#) }, "the write has not answered yet")
    held.release()
    #expect(output.await(#""released""#))
    #expect(connection.finish() == 0)
  }
}
