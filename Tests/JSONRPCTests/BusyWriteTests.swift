import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import JSONRPC

/// A busy write seen from the wire: the scheduler holds it as a callback, lets the reads behind it
/// go ahead, and runs it again once, when its wake-up calls back; a write a request submits
/// (`WriteJobs`, a wallet download's mark) is run so too.
struct BusyWriteTests {
  /// A write busy at its first try, done at the next; `wake` is what its wake-up calls.
  final class BusyOnce: Sendable {
    private let state = Mutex<(tries: Int, resume: (@Sendable () -> Void)?)>((0, nil))
    let waiting = DispatchSemaphore(value: 0)

    func attempt() -> WriteAttempt<JSONValue> {
      let tries = state.withLock { state in
        state.tries += 1
        return state.tries
      }
      guard tries == 1 else { return .done(.success("made")) }
      return .busy(
        wake: { [self] _, _, resume in
          state.withLock { $0.resume = resume }
          waiting.signal()
        }, tooLong: .failure(RPCError.invalidRequest("busy for too long")))
    }

    var tries: Int { state.withLock { $0.tries } }
    func free() { state.withLock { $0.resume }?() }
  }

  private func connection(_ methods: [Method]) -> (Connection, ConnectionSchedulingTests.Output) {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let output = ConnectionSchedulingTests.Output(reading: fds[0])
    let writer = OutputWriter(fd: fds[1])
    close(fds[1])
    var registry = MethodRegistry()
    for method in methods { registry.register(method) }
    registry.register(Method("echo") { request in try request.params.value("value") ?? .null })
    let connection = Connection(
      configuration: Connection.Configuration(framing: .ndjson), registry: registry, writer: writer,
      logger: .silent())
    return (connection, output)
  }

  private func send(_ line: String, to connection: Connection) {
    Array((line + "\n").utf8).withUnsafeBytes { connection.receive($0) }
  }

  @Test func aRequestsBusyWriteIsRunAgainOnceWhenItsWakeUpCallsBack() throws {
    let write = BusyOnce()
    let (connection, output) = connection([Method("write", write: { _ in write.attempt() })])
    send(#"{"jsonrpc":"2.0","id":1,"method":"write"}"#, to: connection)
    #expect(write.waiting.wait(timeout: .now() + 60) == .success)
    // Held as a callback: a read behind it goes ahead.
    send(#"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"value":"ahead"}}"#, to: connection)
    #expect(output.await(#""ahead""#))
    #expect(write.tries == 1 && !output.all.contains { $0.contains(#""id":1"#) })
    write.free()
    #expect(output.await(#""made""#))
    #expect(write.tries == 2)
    #expect(connection.finish() == 0)
  }

  @Test func aWriteARequestSubmitsIsRunAgainOnceWhenItsWakeUpCallsBack() throws {
    let write = BusyOnce()
    let mark = Method("download", placement: { _ in .background }) { request, reply in
      request.writes.submit({ write.attempt() }, completion: reply.callAsFunction)
    }
    let (connection, output) = connection([mark])
    send(#"{"jsonrpc":"2.0","id":1,"method":"download"}"#, to: connection)
    #expect(write.waiting.wait(timeout: .now() + 60) == .success)
    #expect(write.tries == 1 && !output.all.contains { $0.contains(#""id":1"#) })
    write.free()
    #expect(output.await(#""made""#))
    #expect(write.tries == 2)
    #expect(connection.finish() == 0)
  }
}
