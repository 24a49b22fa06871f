import InboxApp
import InboxPreview
import JSON
import LintReport
import Posix

/// `inbox-rpc lsp`: an LSP 3.17 server for inbox payload files. Messages are handled one at a time
/// in arrival order (`handle`); diagnostics are published by `LintScheduler` off that thread, a
/// debounce after the last edit, and a run whose document changed meanwhile is dropped. A hover or
/// the preview needs the verdicts alone: it never waits for a run of diagnostics (it takes the
/// verdicts that run or an earlier one made, else makes them itself).
public final class LanguageServer: @unchecked Sendable {
  public static let previewCommand = "inboxRpc.preview"
  /// The configuration section the server asks for.
  public static let section = "inboxRpc"

  private let lock = Lock()
  private let send: @Sendable (JSONValue) -> Void
  private let linter: DocumentLinter
  private var documents: [String: TextDocument] = [:]
  private var cache: [String: Cached] = [:]
  private var settings = LintSettings()
  private var encoding = PositionEncoding.utf16
  private var features = ClientFeatures()
  private var initialized = false
  private var shuttingDown = false
  private var asksConfiguration = false
  private var nextRequest = 0
  private var workspaceFolders: [String] = []
  private let completion = SchemaCompletion()
  private lazy var scheduler = LintScheduler { [unowned self] uri in self.publish(uri) }

  /// A `file:` URI of the rules' page the diagnostics link to; nil: they link to none.
  private let rulesPage: String?

  public init(
    linter: DocumentLinter, rulesPage: String? = nil, send: @escaping @Sendable (JSONValue) -> Void
  ) {
    self.linter = linter
    self.rulesPage = rulesPage
    self.send = send
  }

  // MARK: dispatch

  /// Handles one message from the client (`exit` and `$/cancelRequest` are the transport's).
  public func handle(_ message: JSONValue) {
    guard let method = message["method"]?.stringValue else {
      if let id = message["id"] { response(to: id, message["result"]) }
      return
    }
    let params = message["params"]
    guard let id = message["id"] else {
      notification(method, params)
      return
    }
    if !(lock.withLock { initialized }), method != "initialize" {
      return reply(id, error: -32002, "the server is not initialized")
    }
    if (lock.withLock { shuttingDown }) { return reply(id, error: -32600, "the server is shutting down") }
    switch method {
    case "initialize": reply(id, initialize(params))
    case "shutdown":
      shutDown()
      reply(id, .null)
    case "textDocument/diagnostic":
      // A document not open has no diagnostics to report, not none: one over the frame limit was refused.
      guard let report = pullDiagnostics(params) else { return reply(id, error: -32803, "the document is not open") }
      reply(id, report)
    case "textDocument/hover": reply(id, hover(params))
    case "textDocument/completion": reply(id, complete(params))
    case "textDocument/codeAction": reply(id, codeActions(params))
    case "textDocument/documentSymbol": reply(id, documentSymbols(params))
    case "textDocument/formatting", "textDocument/rangeFormatting": reply(id, formatting(params))
    case "textDocument/foldingRange": reply(id, foldingRanges(params))
    case "workspace/executeCommand":
      guard params?["command"]?.stringValue == Self.previewCommand,
        let uri = params?["arguments"]?.arrayValue?.first?.stringValue, let html = preview(uri)
      else { return reply(id, error: -32602, "the preview command takes the URI of an open document") }
      reply(id, ["html": .string(html)])
    default: reply(id, error: -32601, "method not found: \(method)")
    }
  }

  /// `shutdown`: requests are refused from now on, and no more diagnostics are made.
  public func shutDown() {
    lock.withLock { shuttingDown = true }
    scheduler.stop()
  }

  /// A document whose message was refused (over the frame limit): it is not open here any more,
  /// and its one diagnostic says why, so the editor shows it neither clean nor linted as it was.
  public func refuse(_ uri: String, because reason: String) {
    lock.withLock {
      documents[uri] = nil
      cache[uri] = nil
    }
    scheduler.forget(uri)
    let start: JSONValue = ["line": 0, "character": 0]
    var diagnostic: JSONObject = [
      "range": ["start": start, "end": start], "severity": 1, "code": "tooLarge", "source": "inbox-rpc",
      "message": .string(reason),
    ]
    if let rulesPage { diagnostic["codeDescription"] = ["href": .string(Diagnostics.href("tooLarge", on: rulesPage))] }
    notify("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": [.object(diagnostic)]])
  }

  private func notification(_ method: String, _ params: JSONValue?) {
    guard lock.withLock({ initialized && !shuttingDown }) else { return }
    switch method {
    case "initialized": if lock.withLock({ asksConfiguration }) { askConfiguration() }
    case "workspace/didChangeConfiguration":
      if let given = params?["settings"], LintSettings.holdsAny(given, section: Self.section) {
        lock.withLock { settings.update(from: given, section: Self.section) }
        relintAll()
      } else if lock.withLock({ asksConfiguration }) {
        askConfiguration()
      }
    case "workspace/didChangeWorkspaceFolders":
      lock.withLock {
        let removed = Set((params?["event"]?["removed"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue })
        workspaceFolders.removeAll { removed.contains($0) }
        workspaceFolders += (params?["event"]?["added"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
      }
    case "textDocument/didOpen":
      guard let item = params?["textDocument"], let uri = item["uri"]?.stringValue else { return }
      let document = TextDocument(
        uri: uri, version: Int(item["version"]?.intValue ?? 0), text: item["text"]?.stringValue ?? "")
      lock.withLock { documents[uri] = document }
      scheduler.schedule(uri, after: 0)
    case "textDocument/didChange":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
      let version = Int(params?["textDocument"]?["version"]?.intValue ?? 0)
      let delay = lock.withLock { () -> Int? in
        guard var document = documents[uri] else { return nil }
        for change in params?["contentChanges"]?.arrayValue ?? [] { apply(change, to: &document, version: version) }
        documents[uri] = document
        return settings.debounceMilliseconds
      }
      if let delay { scheduler.schedule(uri, after: delay) }
    case "textDocument/didSave":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
      if let text = params?["text"]?.stringValue {
        lock.withLock {
          guard var document = documents[uri] else { return }
          document.replaceAll(with: text, version: document.version)
          documents[uri] = document
          cache[uri] = nil  // the same version with other text: what was linted is stale
        }
      }
      scheduler.schedule(uri, after: 0)
    case "textDocument/didClose":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
      lock.withLock {
        documents[uri] = nil
        cache[uri] = nil
      }
      scheduler.forget(uri)
      notify("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
    default: break  // `$/cancelRequest` is read by the reader; other notifications may be ignored
    }
  }

  private func apply(_ change: JSONValue, to document: inout TextDocument, version: Int) {
    let text = change["text"]?.stringValue ?? ""
    guard let range = change["range"] else { return document.replaceAll(with: text, version: version) }
    func offset(_ position: JSONValue?) -> Int {
      document.offset(
        line: Int(position?["line"]?.intValue ?? 0), character: Int(position?["character"]?.intValue ?? 0),
        encoding: encoding)
    }
    document.replace(from: offset(range["start"]), to: offset(range["end"]), with: text, version: version)
  }

  // MARK: lifecycle

  private func initialize(_ params: JSONValue?) -> JSONValue {
    let capabilities = params?["capabilities"]
    let offered = capabilities?["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue)
    let chosen = PositionEncoding.negotiate(offered)
    lock.withLock {
      encoding = chosen
      features = ClientFeatures(capabilities)
      initialized = true
      asksConfiguration = capabilities?["workspace"]?["configuration"]?.boolValue == true
      settings.update(from: params?["initializationOptions"], section: Self.section)
      workspaceFolders = (params?["workspaceFolders"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
    }
    return [
      "capabilities": [
        "positionEncoding": .string(chosen.rawValue),
        "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
        "hoverProvider": true,
        "completionProvider": ["triggerCharacters": ["\"", ":"], "resolveProvider": false],
        "codeActionProvider": ["codeActionKinds": ["quickfix"]],
        "documentSymbolProvider": ["label": "inbox-rpc"],
        "documentFormattingProvider": true, "documentRangeFormattingProvider": true, "foldingRangeProvider": true,
        "executeCommandProvider": ["commands": [.string(Self.previewCommand)]],
        "diagnosticProvider": ["interFileDependencies": false, "workspaceDiagnostics": false],
        "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
      ],
      "serverInfo": ["name": "inbox-rpc", "version": .string(ServerInfo.version)],
    ]
  }

  private func askConfiguration() {
    let id = lock.withLock { () -> Int in
      nextRequest += 1
      return nextRequest
    }
    send([
      "jsonrpc": "2.0", "id": .string("configuration-\(id)"), "method": "workspace/configuration",
      "params": ["items": [["section": .string(Self.section)]]],
    ])
  }

  /// A reply to the server's own request: the configuration asked for.
  private func response(to id: JSONValue, _ result: JSONValue?) {
    guard id.stringValue?.hasPrefix("configuration-") == true, let first = result?.arrayValue?.first else { return }
    lock.withLock { settings.update(from: first, section: Self.section) }
    relintAll()
  }

  private func relintAll() {
    for uri in lock.withLock({ Array(documents.keys) }) { scheduler.schedule(uri, after: 0) }
  }

  // MARK: features

  /// What was linted of a document: its verdicts, and its findings once a whole lint placed them.
  private struct Cached {
    var version: Int
    var settings: LintSettings
    var reports: [PayloadLint.Report]
    var findings: [Finding]?
  }

  /// The document's lint for its current version and settings, from the cache when it has it.
  func linted(_ uri: String) -> (TextDocument, LintedDocument)? {
    let state = lock.withLock { () -> (TextDocument, LintSettings, LintedDocument?)? in
      guard let document = documents[uri] else { return nil }
      let cached = fresh(uri, document).flatMap { cached in
        cached.findings.map { LintedDocument(findings: $0, reports: cached.reports) }
      }
      return (document, settings, cached)
    }
    guard let (document, settings, cached) = state else { return nil }
    if let cached { return (document, cached) }
    let linted =
      PayloadKind.recognises(document.bytes)
      ? linter.lint(Self.file(uri), document.bytes, settings) : LintedDocument(findings: [], reports: [])
    lock.withLock {
      if documents[uri]?.version == document.version {
        cache[uri] = Cached(
          version: document.version, settings: settings, reports: linted.reports, findings: linted.findings)
      }
    }
    return (document, linted)
  }

  /// The document's verdicts for its current version and settings: a lint's, else made alone
  /// (and kept until a lint's replace them), never waiting for a lint under way.
  func verdicts(_ uri: String) -> (TextDocument, [PayloadLint.Report])? {
    let state = lock.withLock { () -> (TextDocument, LintSettings, [PayloadLint.Report]?)? in
      guard let document = documents[uri] else { return nil }
      return (document, settings, fresh(uri, document)?.reports)
    }
    guard let (document, settings, cached) = state else { return nil }
    if let cached { return (document, cached) }
    let reports =
      PayloadKind.recognises(document.bytes) ? linter.verdicts(Self.file(uri), document.bytes, settings) : []
    lock.withLock {
      if documents[uri]?.version == document.version, fresh(uri, document) == nil {
        cache[uri] = Cached(version: document.version, settings: settings, reports: reports, findings: nil)
      }
    }
    return (document, reports)
  }

  /// What the cache holds of `document` as it is now, under the settings now; the lock is held.
  private func fresh(_ uri: String, _ document: TextDocument) -> Cached? {
    cache[uri].flatMap { $0.version == document.version && $0.settings == settings ? $0 : nil }
  }

  /// Lints and publishes, unless the document changed while it was linted (a newer run follows).
  private func publish(_ uri: String) {
    guard let (document, linted) = linted(uri) else { return }
    let (current, encoding) = lock.withLock { (documents[uri]?.version, self.encoding) }
    guard current == document.version else { return }
    notify(
      "textDocument/publishDiagnostics",
      [
        "uri": .string(uri), "version": .int(Int64(document.version)),
        "diagnostics": Diagnostics.json(linted.findings, in: document, encoding: encoding, rulesPage: rulesPage),
      ])
  }

  private func pullDiagnostics(_ params: JSONValue?) -> JSONValue? {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let (document, linted) = linted(uri) else {
      return nil
    }
    let resultId = "\(document.version)"
    if params?["previousResultId"]?.stringValue == resultId, lock.withLock({ cache[uri]?.findings != nil }) {
      return ["kind": "unchanged", "resultId": .string(resultId)]
    }
    return [
      "kind": "full", "resultId": .string(resultId),
      "items": Diagnostics.json(
        linted.findings, in: document, encoding: lock.withLock { encoding }, rulesPage: rulesPage),
    ]
  }

  /// The open document a request's `textDocument` names, with the encoding and the client's features.
  func open(_ params: JSONValue?) -> (TextDocument, PositionEncoding, ClientFeatures)? {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return nil }
    return lock.withLock { documents[uri].map { ($0, encoding, features) } }
  }

  private func offset(_ params: JSONValue?, in document: TextDocument) -> Int {
    let position = params?["position"]
    return document.offset(
      line: Int(position?["line"]?.intValue ?? 0), character: Int(position?["character"]?.intValue ?? 0),
      encoding: lock.withLock { encoding })
  }

  private func hover(_ params: JSONValue?) -> JSONValue {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let (document, verdicts) = verdicts(uri) else {
      return .null
    }
    let at = offset(params, in: document)
    // One index for every payload's start: the array that lists them is walked once.
    let values = ValueIndex(SourceText(document.bytes))
    // The innermost payload holding the cursor, with every verdict of it (one a platform, a language).
    var best: (start: Int, end: Int, pointer: String)?
    var seen = Set<JSONPointer>()
    for report in verdicts where seen.insert(report.pointer).inserted {  // a payload's span once
      let start = values.offset(of: report.pointer)
      guard start <= at, best == nil || start >= best!.start else { continue }
      let end = JSONScanner.valueEnd(document.bytes, at: start)
      if at <= end { best = (start, end, report.pointer.description) }
    }
    // On a member's name, the schema's description of it comes first.
    let field =
      PayloadKind.recognises(document.bytes) ? FieldDescription.at(at, in: document.bytes, schemas: completion) : nil
    var sections = field.map { [$0.text] } ?? []
    if let best { sections.append(HoverCard.markdown(verdicts.filter { $0.pointer.description == best.pointer })) }
    guard let span = best.map({ $0.start..<$0.end }) ?? field?.name else { return .null }
    return [
      "contents": ["kind": "markdown", "value": .string(sections.joined(separator: "\n\n---\n\n"))],
      "range": Diagnostics.range(span.lowerBound, span.upperBound, in: document, encoding: lock.withLock { encoding }),
    ]
  }

  private func complete(_ params: JSONValue?) -> JSONValue {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue,
      let document = lock.withLock({ documents[uri] })
    else { return ["isIncomplete": false, "items": []] }
    let at = offset(params, in: document)
    let place = JSONCursor.place(document.bytes, at: at)
    let isRequest =
      (try? JSONValue.parse(bytes: document.bytes[...]))?["request"] != nil || place.pointer.first == "request"
    let (encoding, features) = lock.withLock { (self.encoding, self.features) }
    let items = CompletionEdits(features: features).json(
      completion.items(at: place, rootIsRequest: isRequest), at: at, in: document, encoding: encoding)
    return ["isIncomplete": false, "items": .array(items)]
  }

  private func codeActions(_ params: JSONValue?) -> JSONValue {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let document = lock.withLock({ documents[uri] })
    else { return [] }
    let encoding = lock.withLock { self.encoding }
    var actions: [JSONValue] = []
    var offered = Set<QuickFix.Fix>()  // one fix a problem, however often the client lists it
    for diagnostic in params?["context"]?["diagnostics"]?.arrayValue ?? [] {
      guard let code = diagnostic["code"]?.stringValue, let start = diagnostic["range"]?["start"] else { continue }
      let offset = document.offset(
        line: Int(start["line"]?.intValue ?? 0), character: Int(start["character"]?.intValue ?? 0), encoding: encoding)
      guard let fix = QuickFix.fix(code: code, at: offset, in: document.bytes), offered.insert(fix).inserted else {
        continue
      }
      let edit: JSONValue = [
        "range": Diagnostics.range(fix.start, fix.end, in: document, encoding: encoding),
        "newText": .string(fix.newText),
      ]
      actions.append([
        "title": .string(fix.title), "kind": "quickfix", "diagnostics": [diagnostic], "isPreferred": true,
        "edit": ["changes": .object([uri: [edit]])],
      ])
    }
    return .array(actions)
  }

  private func preview(_ uri: String) -> String? {
    guard let (_, reports) = verdicts(uri) else { return nil }
    let options = PreviewPage.Options(title: "Inbox preview", subtitle: lock.withLock { settings.platform })
    return PreviewPage.html(FeedPreview.entries(file: Self.file(uri), reports: reports), options: options)
  }

  // MARK: output

  private func reply(_ id: JSONValue, _ result: JSONValue) {
    send(["jsonrpc": "2.0", "id": id, "result": result])
  }

  private func reply(_ id: JSONValue, error code: Int64, _ message: String) {
    send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(code), "message": .string(message)]])
  }

  private func notify(_ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// The file name lint would report: the path of a `file:` URI, its `%XX` escapes decoded (bytes
  /// that are not UTF-8 kept as the file system has them, `FileName`), else the URI.
  static func file(_ uri: String) -> String {
    guard uri.hasPrefix("file://") else { return uri }
    var bytes: [UInt8] = []
    var rest = Array(uri.utf8.dropFirst(7))[...]
    while let byte = rest.popFirst() {
      if byte == UInt8(ascii: "%"), rest.count >= 2, let high = hexDigit(rest[rest.startIndex]),
        let low = hexDigit(rest[rest.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        rest = rest.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return FileName.decode(bytes)
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
