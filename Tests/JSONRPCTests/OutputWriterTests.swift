import Foundation
import JSON
import Testing

@testable import JSONRPC

/// Every frame leaves in one `write`; a request answered on the reader sends its notifications and
/// its reply together, while other threads' frames are not held up behind it.
struct OutputWriterTests {
  /// A writer on a pipe, and the bytes waiting in the pipe so far.
  final class Pipe: Sendable {
    let writer: OutputWriter
    private let read: Int32
    private let write: Int32

    init() {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      writer = OutputWriter(fd: write)
    }

    deinit {
      close(read)
      close(write)
    }

    /// What has been written and not read yet (the pipe is far from full in these tests).
    func drain() -> String {
      var waiting: Int32 = 0
      _ = ioctl(read, UInt(FIONREAD), &waiting)
      guard waiting > 0 else { return "" }
      var bytes = [UInt8](repeating: 0, count: Int(waiting))
      let count = Glibc.read(read, &bytes, bytes.count)
      return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
  }

  @Test func anEncodedFrameEndsWithItsNewline() {
    let pipe = Pipe()
    pipe.writer.send(encoded: Array(#"{"id":1}"#.utf8))
    #expect(pipe.drain() == "{\"id\":1}\n")
  }

  @Test func framesSentWhileCoalescingWaitForTheEnd() {
    let pipe = Pipe()
    pipe.writer.coalescing { held in
      held.send(Response.notification("feed.changed", ["reason": "dismissed"]))
      #expect(pipe.drain() == "")
      held.send(line: Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n".utf8))
      #expect(pipe.drain() == "")
    }
    let lines = pipe.drain().split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("feed.changed") == true)
    #expect(lines.last?.contains("\"id\":1") == true)
  }

  @Test func framesSentToTheWriterItselfAreWrittenAtOnce() {
    let pipe = Pipe()
    pipe.writer.coalescing { held in
      held.send(line: Array("[1]\n".utf8))
      let done = DispatchSemaphore(value: 0)
      Thread {
        pipe.writer.send(encoded: Array("[2]".utf8))
        done.signal()
      }.start()
      done.wait()
      #expect(pipe.drain() == "[2]\n")
      pipe.writer.send(encoded: Array("[3]".utf8))
      #expect(pipe.drain() == "[3]\n")
    }
    #expect(pipe.drain() == "[1]\n")
  }

  @Test func aFrameHeldAfterTheEndIsWrittenAtOnce() {
    let pipe = Pipe()
    let escaped = pipe.writer.coalescing { $0 }
    escaped.send(line: Array("[4]\n".utf8))
    #expect(pipe.drain() == "[4]\n")
  }

  @Test func lspFramesCarryTheirHeaderInTheSameWrite() {
    let pipe = Pipe()
    pipe.writer.use(.lsp)
    pipe.writer.send(encoded: Array("{}".utf8))
    #expect(pipe.drain() == "Content-Length: 2\r\n\r\n{}")
  }
}
