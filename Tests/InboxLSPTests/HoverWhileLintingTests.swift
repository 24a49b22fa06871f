import Dispatch
import InboxApp
import JSON
import LintReport
import Synchronization
import Testing

@testable import InboxLSP

/// A hover on a large document is answered while the document's diagnostics are still being made:
/// the lint here holds until the test lets it go, and the hover's reply comes first.
struct HoverWhileLintingTests {
  /// Messages the server sends, each waited for as it arrives.
  final class Events: Sendable {
    private let messages = Mutex<[JSONValue]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ message: JSONValue) {
      messages.withLock { $0.append(message) }
      arrived.signal()
    }

    var all: [JSONValue] { messages.withLock { $0 } }

    /// The first message `matches` takes, waiting for it under a deadline that only catches a hang.
    func first(_ matches: (JSONValue) -> Bool) -> JSONValue? {
      let deadline = DispatchTime.now() + 120
      while true {
        if let found = all.first(where: matches) { return found }
        guard arrived.wait(timeout: deadline) == .success else { return nil }
      }
    }
  }

  /// A lint that says it started, then holds until it is let go (or a deadline catches a hang).
  final class HeldLint: Sendable {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    func run(_ reports: [PayloadLint.Report]) -> LintedDocument {
      started.signal()
      _ = release.wait(timeout: .now() + 120)
      return LintedDocument(findings: [], reports: reports)
    }
  }

  /// 2,000 notifications, one a line, each with buttons to warn about.
  static let document: String = {
    let items = (0..<2000).map { index in
      #"{"send_date": "now", "inbox_days": 3, "ios_title": "Offer \#(index)", "content": "Today only", "#
        + #""data": {"displayType": "classic", "buttons": [{"title": "Go", "url": "x"}, {"title": 7}]}}"#
    }
    return "[\n" + items.joined(separator: ",\n") + "\n]\n"
  }()

  @Test func aHoverIsAnsweredWhileTheDiagnosticsAreHeld() throws {
    let held = HeldLint()
    let verdicts: DocumentLinter.Run<[PayloadLint.Report]> = { _, bytes, _ in
      guard let value = try? JSONValue.parse(bytes: bytes[...]) else { return [] }
      return PayloadLint.lint(value, now: 1_790_000_000)
    }
    let linter = DocumentLinter(
      verdicts: verdicts, lint: { file, bytes, settings in held.run(verdicts(file, bytes, settings)) })
    let events = Events()
    let server = LanguageServer(linter: linter) { events.add($0) }
    server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]]])
    server.handle(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
    let uri = "file:///tmp/large.json"
    server.handle([
      "jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": ["textDocument": ["uri": .string(uri), "version": 1, "text": .string(Self.document)]],
    ])
    try #require(held.started.wait(timeout: .now() + 120) == .success, "the diagnostics' lint never started")

    let hover: JSONValue = [
      "jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
      "params": ["textDocument": ["uri": .string(uri)], "position": ["line": 1501, "character": 5]],
    ]
    DispatchQueue.global().async { server.handle(hover) }
    let reply = try #require(events.first { $0["id"] == 2 }, "no reply to the hover")
    #expect(!events.all.contains { $0["method"]?.stringValue == "textDocument/publishDiagnostics" })
    let card = try #require(reply["result"]?["contents"]?["value"]?.stringValue)
    #expect(card.contains("Offer 1500"))
    #expect(card.contains("buttonDropped") || card.contains("invalidButtonURL"))
    #expect(reply["result"]?["range"]?["start"]?["line"]?.intValue == 1501)

    held.release.signal()
    let published = events.first { $0["method"]?.stringValue == "textDocument/publishDiagnostics" }
    #expect(published?["params"]?["version"]?.intValue == 1)
    server.shutDown()
  }
}
