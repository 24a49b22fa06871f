import Foundation
import JSON
import Testing

@testable import JSONRPC

/// A request is answered exactly once: by its handler, or by a cancel that claimed it first; one
/// dropped unanswered answers an internal error itself.
struct PendingReplyTests {
  /// Runs `body` with a writer on a pipe, and returns the lines written.
  func written(_ body: (OutputWriter) -> Void) throws -> [String] {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    do {
      // The writer holds a descriptor of its own on the pipe: the end is seen once it is gone too.
      let writer = OutputWriter(fd: fds[1])
      body(writer)
      writer.flush()
    }
    close(fds[1])
    let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func theHandlersAnswerIsTheReply() throws {
    let lines = try written { writer in
      let reply = PendingReply(id: 1, token: nil, writer: writer).answer(.success("pong"))
      #expect(reply == ["jsonrpc": "2.0", "id": 1, "result": "pong"])
    }
    #expect(lines.isEmpty)
  }

  @Test func aCancelThatClaimedFirstLeavesNothingToSend() throws {
    let token = CancellationToken()
    #expect(token.claimReply())
    let lines = try written { writer in
      #expect(PendingReply(id: 2, token: token, writer: writer).answer(.failure(.cancelled)) == nil)
    }
    #expect(lines.isEmpty)
  }

  @Test func aDroppedReplyAnswersItself() throws {
    let lines = try written { writer in
      _ = PendingReply(id: 3, token: CancellationToken(), writer: writer)
    }
    #expect(lines.count == 1 && lines[0].contains("\"id\":3") && lines[0].contains("-32603"))
  }
}
