import JSON
import JSONRPC
import Synchronization
import Testing

@testable import InboxLSP

/// The language server behind the shared transport: each message handed to it as the transport
/// read it, and its reply given back to the request it answers.
struct LanguageServerFaceTests {
  static let linter = DocumentLinter(
    verdicts: { _, _, _ in [] }, lint: { _, _, _ in LintedDocument(findings: [], reports: []) })

  @Test func repliesAreKeptForTheirRequestAndTheRestGoesOut() {
    let answers = Answers()
    #expect(answers.keep(["jsonrpc": "2.0", "id": 7, "result": .null]))
    #expect(!answers.keep(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": [:]]))
    #expect(!answers.keep(["jsonrpc": "2.0", "id": "configuration-1", "method": "workspace/configuration"]))
    #expect(answers.take(7)?["result"] == .null)
    #expect(answers.take(7) == nil, "a reply is taken once")
  }

  @Test func aRequestIsAnsweredWithTheServersResultOrError() throws {
    let sent = Sent()
    let answers = Answers()
    let server = LanguageServer(linter: Self.linter) { message in
      if !answers.keep(message) { sent.add(message) }
    }
    let method = LanguageServerFace.everyMethod(server, answers)
    guard case .immediate(let run) = method.body else { Issue.record("not an immediate method"); return }
    func call(_ id: JSONValue?, _ name: String, _ params: JSONValue? = nil) -> Result<JSONValue, RPCError> {
      let request = RequestContext(
        id: id, method: name, params: Params(params), cancellation: CancellationToken(), notify: { _, _ in },
        logger: .silent())
      return Result { try run(request) }.mapError { RPCError($0) }
    }
    func code(_ outcome: Result<JSONValue, RPCError>) -> Int? {
      guard case .failure(let error) = outcome else { return nil }
      return error.code.rawValue
    }
    #expect(code(call(1, "textDocument/hover")) == -32002, "before initialize")
    let initialized = try call(2, "initialize", ["capabilities": [:]]).get()
    #expect(initialized["capabilities"]?["positionEncoding"]?.stringValue == "utf-16")
    #expect(try call(nil, "initialized", [:]).get() == .null)
    let pulled = call(3, "textDocument/diagnostic", ["textDocument": ["uri": "file:///x.json"]])
    #expect(code(pulled) == -32803, "a document not open is not reported clean")
    #expect(sent.all.isEmpty, "no reply leaked past its request")
  }

  @Test func theOversizeMessageNamesTheLimit() {
    let text = OversizeMessage.text(limit: 16 << 20, size: 24_000_000)
    #expect(text.contains("24000000 bytes") && text.contains("16777216 bytes") && text.contains("16 MiB"))
    #expect(!OversizeMessage.text(limit: 1000, size: nil).contains("MiB"))
  }

  @Test func theRefusedDocumentIsFoundInTheHeadOfItsMessage() {
    func uri(_ head: String) -> String? { OversizeMessage.documentURI(in: Array(head.utf8)) }
    #expect(
      uri(#"{"params": {"textDocument": {"uri" : "file:///a%20b.json", "text": "{"uri": 1"#) == "file:///a%20b.json")
    #expect(uri(#"{"textDocument":{"uri":"file:///q\"x\u0041.json","version":2}"#) == #"file:///q"xA.json"#)
    #expect(uri(#"{"textDocument":{"text":"aaaa"#) == nil, "the text first: no document named")
    #expect(uri(#"{"event": {"added": [{"uri": "file:///w"}]}}"#) == nil, "no textDocument: no document")
    #expect(uri(#"{"textDocument":{"uri":"file:///cut"#) == nil, "a name cut short is no name")
  }
}

final class Sent: Sendable {
  private let messages = Mutex<[JSONValue]>([])
  func add(_ message: JSONValue) { messages.withLock { $0.append(message) } }
  var all: [JSONValue] { messages.withLock { $0 } }
}
