import JSON
import JSONRPC
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The language server behind the transport every face shares (`Connection`): `Content-Length`
/// frames, the same limits, `$/cancelRequest`, `shutdown` and `exit`, the drain at the end and
/// `--output-patience` (docs/protocol.md). Every other message goes to `LanguageServer.handle`, one
/// at a time in arrival order (each placed as a write); the replies it sends are handed back to the
/// request they answer (`Answers`), so the transport answers each once, cancels and size limit
/// included.
public enum LanguageServerFace {
  /// Serves until `exit` or the end of input; returns the exit code (0 after `shutdown`, 1 for an
  /// `exit` without it). A host that closes its output ends the process at once; one that takes no
  /// output for the patience, with exit 6, unless it asked to exit (it wants nothing more).
  public static func serve(
    input: Int32, output: Int32, configuration base: Connection.Configuration, logger: Logger,
    linter: DocumentLinter, rulesPage: String?
  ) -> Int32 {
    let session = Mutex<Connection?>(nil)
    let writer = OutputWriter(fd: output, tracer: base.tracer) { gone in
      let (asked, code) = session.withLock { ($0?.exitRequested ?? false, $0?.exitCode ?? 0) }
      if gone == .stalled, !asked {
        logger.warn("the host took no output for \(base.outputPatience) s; replies dropped, exiting")
      }
      logger.flush()
      _exit(asked ? code : gone == .stalled ? 6 : 0)
    }
    let answers = Answers()
    let server = LanguageServer(linter: linter, rulesPage: rulesPage) { message in
      if !answers.keep(message) { writer.send(message) }
    }
    var configuration = base
    configuration.framing = .lsp
    configuration.onResponse = { server.handle($0) }
    configuration.onShutdown = { server.shutDown() }
    configuration.onTooLarge = { limit, size, head in
      let text = OversizeMessage.text(limit: limit, size: size)
      logger.warn(text)
      writer.send(Self.showMessage(text))
      if let uri = OversizeMessage.documentURI(in: head) { server.refuse(uri, because: text) }
    }
    let registry = MethodRegistry(fallback: Self.everyMethod(server, answers))
    let connection = Connection(configuration: configuration, registry: registry, writer: writer, logger: logger)
    session.withLock { $0 = connection }
    return connection.serve(input: input)
  }

  /// The one method every name but the transport's own runs: the message rebuilt and handled.
  static func everyMethod(_ server: LanguageServer, _ answers: Answers) -> Method {
    Method("*", execution: .write) { request in
      var message: JSONObject = ["jsonrpc": "2.0", "method": .string(request.method)]
      if let id = request.id { message["id"] = id }
      if let params = request.params.raw { message["params"] = params }
      server.handle(.object(message))
      guard let id = request.id else { return .null }
      guard let reply = answers.take(id) else {
        throw RPCError(.internalError, "Internal error", data: ["reason": "the request was not answered"])
      }
      if let error = reply["error"] {
        let code = ErrorCode(rawValue: Int(error["code"]?.intValue ?? Int64(ErrorCode.internalError.rawValue)))
        throw RPCError(code, error["message"]?.stringValue ?? "", data: error["data"])
      }
      return reply["result"] ?? .null
    }
  }

  /// `window/showMessage` of type Error.
  static func showMessage(_ text: String) -> JSONValue {
    ["jsonrpc": "2.0", "method": "window/showMessage", "params": ["type": 1, "message": .string(text)]]
  }
}

/// What the editor's user and the log are told of a message over the frame limit: its document is
/// not open here, so it has no diagnostics (it is not reported clean).
enum OversizeMessage {
  static func text(limit: Int, size: Int?) -> String {
    let what = size.map { "a message of \($0) bytes" } ?? "a message"
    let mebibytes = limit % (1 << 20) == 0 ? ", \(limit >> 20) MiB" : ""
    return "inbox-rpc lsp: \(what) was refused: over the limit of \(limit) bytes (--max-frame-bytes\(mebibytes)); "
      + "a document it carried is not linted and has no diagnostics"
  }
}

extension OversizeMessage {
  /// The document a refused message named, from the head of its body: the string of the first
  /// `"uri"` member after `"textDocument"` (a `didOpen` or `didChange` names its document before
  /// its text in most clients; where the text comes first, or the head had not arrived, none is
  /// found). Inside a JSON string every quote is escaped, so no text matches a member's name.
  static func documentURI(in head: [UInt8]) -> String? {
    func find(_ name: String, from start: Int) -> Int? {
      let key = Array("\"\(name)\"".utf8)
      return (start..<head.count).first { head[$0...].starts(with: key) }.map { $0 + key.count }
    }
    guard let document = find("textDocument", from: 0), var index = find("uri", from: document) else { return nil }
    func skipBlank() { while index < head.count, head[index] == 0x20 || head[index] == 0x09 { index += 1 } }
    skipBlank()
    guard index < head.count, head[index] == UInt8(ascii: ":") else { return nil }
    index += 1
    skipBlank()
    guard index < head.count, head[index] == UInt8(ascii: "\"") else { return nil }
    var end = index + 1
    while end < head.count, head[end] != UInt8(ascii: "\"") { end += head[end] == UInt8(ascii: "\\") ? 2 : 1 }
    guard end < head.count else { return nil }
    return (try? JSONValue.parse(bytes: head[index...end]))?.stringValue
  }
}

/// The replies `LanguageServer` sent, held by id until the request they answer takes its own.
final class Answers: Sendable {
  private let replies = Mutex<[JSONValue: JSONValue]>([:])

  /// Keeps `message` when it is a reply (an id, no method) and returns true; false for anything
  /// else (a notification, the server's own request), which goes out as it is.
  func keep(_ message: JSONValue) -> Bool {
    guard message["method"] == nil, let id = message["id"] else { return false }
    replies.withLock { $0[id] = message }
    return true
  }

  func take(_ id: JSONValue) -> JSONValue? {
    replies.withLock { $0.removeValue(forKey: id) }
  }
}
