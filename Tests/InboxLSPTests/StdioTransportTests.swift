import JSON
import Synchronization
import Testing

@testable import InboxLSP

/// `$/cancelRequest` read ahead of the request it names: the request is answered as cancelled.
struct StdioTransportTests {
  @Test func aCancelledRequestIsMarked() throws {
    let cancelled = StdioTransport.CancelledRequests()
    #expect(!cancelled.note(["jsonrpc": "2.0", "id": 7, "method": "textDocument/hover"]))
    #expect(!cancelled.note(["jsonrpc": "2.0", "id": 8, "method": "textDocument/hover"]))
    #expect(cancelled.note(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 8]]))
    #expect(!cancelled.take(7))
    #expect(cancelled.take(8))
    #expect(!cancelled.take(8), "a cancel is taken once")
  }

  @Test func serverAnswersCancelledAndRefusesBeforeInitialize() {
    let sent = Sent()
    let server = LanguageServer(
      linter: DocumentLinter(
        verdicts: { _, _, _ in [] }, lint: { _, _, _ in LintedDocument(findings: [], reports: []) })
    ) { sent.add($0) }
    server.handle(["jsonrpc": "2.0", "id": 1, "method": "textDocument/hover"])
    server.handle(["jsonrpc": "2.0", "id": 2, "method": "initialize", "params": ["capabilities": [:]]])
    server.handle(["jsonrpc": "2.0", "id": 3, "method": "textDocument/hover"], cancelled: true)
    server.handle(["jsonrpc": "2.0", "method": "exit"])
    let messages = sent.all
    #expect(messages[0]["error"]?["code"]?.intValue == -32002)
    #expect(messages[1]["result"]?["capabilities"]?["positionEncoding"]?.stringValue == "utf-16")
    #expect(messages[2]["error"]?["code"]?.intValue == -32800)
    #expect(server.exitCode == 1)
  }
}

final class Sent: Sendable {
  private let messages = Mutex<[JSONValue]>([])
  func add(_ message: JSONValue) { messages.withLock { $0.append(message) } }
  var all: [JSONValue] { messages.withLock { $0 } }
}
