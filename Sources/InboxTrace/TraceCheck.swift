import JSON
import LintReport

/// One pass of `TraceContract` over a trace: remembers the requests sent so that each reply is
/// checked against the schema of the method it answers.
///
/// Each message the host sent, with its reply, is one subject of the report, handed to `emit` as
/// soon as it is complete (a notification at once, a request when its reply comes, one never
/// answered at the end), so a trace of millions of frames is checked in the memory of its largest
/// frame and of the requests outstanding at once. A finding about no message of the host's (a
/// notification of the server's, a reply to nothing, a line that is not a record) is a subject of
/// its own, named by its line.
struct TraceCheck {
  let file: String
  let contract: TraceContract
  private let emit: (Report.Subject) -> Void
  /// The host's messages not complete yet, by their number in the trace.
  private var open: [Int: Exchange] = [:]
  private var opened = 0
  /// Requests not answered yet, by the id's JSON text: the method, where its id is, its exchange.
  private var pending: [String: Pending] = [:]
  typealias Pending = (method: String, position: SourcePosition, id: JSONValue, exchange: Int)
  /// The line of the record being checked, for the positions of its findings.
  private var text: SourceText?
  /// The exchange the message being checked belongs to (nil: a notification of the server, or a
  /// reply to nothing).
  private var current: Int?
  private var cancelled: Set<String> = []
  /// An MCP host's trace: its methods are MCP's, not the contract's, so the envelope, the pairing of
  /// replies with requests and each tool call against its tool's schemas are checked.
  private var isMCP = false
  /// The tool each pending `tools/call` named, by the id's JSON text.
  private var calledTools: [String: String] = [:]

  struct Exchange {
    var line: Int
    /// `line 12: feed.list (id 3)`.
    var name: String
    var findings: [TraceFinding] = []
    /// A request whose reply is still to come.
    var awaitsReply = false
  }

  init(file: String, contract: TraceContract, emit: @escaping (Report.Subject) -> Void) {
    self.file = file
    self.contract = contract
    self.emit = emit
  }

  /// Where in a record: the path people read (`[1].params.id`) and the JSON pointer from the
  /// record's root (`/frame/1/params/id`).
  struct Place {
    var path: String
    var pointer: JSONPointer

    /// A member of the message here.
    func member(_ name: String) -> Place {
      Place(path: path.isEmpty ? name : path + "." + name, pointer: pointer.appending(name))
    }

    /// The path before a member's name: empty, or `[1].`.
    var prefix: String { path.isEmpty ? "" : path + "." }
  }

  mutating func add(
    _ line: Int, _ id: JSONValue?, _ place: Place, _ rule: String, _ severity: TraceFinding.Severity,
    _ message: String, at position: SourcePosition? = nil
  ) {
    let found = TraceFinding(
      file: file, position: position ?? self.position(of: place.pointer, line: line), id: id,
      path: place.path.isEmpty ? "frame" : place.path, pointer: place.pointer, rule: rule, severity: severity,
      message: message)
    guard let current, open[current] != nil else {
      return emit(Report.Subject(file: file, name: "line \(line): the trace", findings: [TraceReport.finding(found)]))
    }
    open[current]?.findings.append(found)
  }

  /// Hands exchange `number` to `emit`, its findings in the order of their lines.
  private mutating func complete(_ number: Int) {
    guard let exchange = open.removeValue(forKey: number) else { return }
    let ordered = exchange.findings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
    emit(Report.Subject(file: file, name: exchange.name, findings: ordered.map { TraceReport.finding($0.element) }))
  }

  /// The exchange of `current`, complete once the message just checked leaves no reply to wait for.
  private mutating func completeCurrent() {
    if let current, open[current]?.awaitsReply == false { complete(current) }
  }

  /// Remembers a request whose reply is to come.
  private mutating func expectReply(_ key: String, _ request: Pending) {
    if let earlier = pending[key], earlier.exchange != request.exchange { open[earlier.exchange]?.awaitsReply = false }
    pending[key] = request
    open[request.exchange]?.awaitsReply = true
  }

  /// Takes the request a reply answers off the list; nil for none.
  private mutating func settle(_ key: String) -> Pending? {
    guard let request = pending.removeValue(forKey: key) else { return nil }
    open[request.exchange]?.awaitsReply = false
    return request
  }

  /// Where `pointer` leads in the record being checked: its line, and the column in that line alone
  /// (never a walk from the top of the file, so each finding costs the length of its line at most).
  private func position(of pointer: JSONPointer, line: Int) -> SourcePosition {
    guard let text else { return SourcePosition(line: line, column: 1) }
    var position = SourcePosition(offset: text.offset(of: pointer), in: text.bytes)
    position.line = line
    return position
  }

  /// One entry of the trace, in order.
  mutating func take(_ entry: TraceLog.Entry) {
    switch entry {
    case .gap(let gap):
      text = nil
      current = nil
      add(
        gap.line, nil, Place(path: "frame", pointer: JSONPointer()), gap.isDrop ? "trace-gap" : "trace-record",
        gap.isDrop ? .warning : .error, gap.reason)
    case .record(let record):
      text = record.text
      check(record)
    }
  }

  private mutating func add(_ line: Int, _ id: JSONValue?, _ problem: TraceContract.Problem, at place: Place) {
    let pointer = problem.pointer ?? place.pointer
    add(line, id, Place(path: problem.path, pointer: pointer), problem.rule, .error, problem.message)
  }

  private mutating func check(_ record: TraceLog.Record) {
    let frame = Place(path: "", pointer: JSONPointer(["frame"]))
    if record.isText {
      current = record.direction == .incoming ? open(record.line, "a frame that is not JSON") : nil
      let who = record.direction == .incoming ? "the host sent" : "the server wrote"
      add(record.line, nil, frame, "json", .error, "\(who) a frame that is not JSON")
      completeCurrent()
      return
    }
    for (index, message) in TraceLog.messages(of: record.frame) {
      let place =
        index.map { Place(path: "[\($0)]", pointer: frame.pointer.appending(index: $0)) } ?? frame
      switch record.direction {
      case .incoming:
        let method = message["method"]?.stringValue ?? "a message without a method"
        current = open(record.line, method + (message["id"].map { " (id \($0.jsonString))" } ?? ""))
      case .outgoing:
        current = message["method"] == nil ? pending[(message["id"] ?? .null).jsonString]?.exchange : nil
      }
      defer { completeCurrent() }
      guard case .object = message else {
        add(record.line, nil, place, "envelope", .error, "a message must be an object")
        continue
      }
      if message["jsonrpc"]?.stringValue != "2.0" {
        add(record.line, message["id"], place.member("jsonrpc"), "envelope", .error, "jsonrpc must be \"2.0\"")
      }
      switch record.direction {
      case .incoming: checkSent(message, line: record.line, place: place)
      case .outgoing: checkWritten(message, line: record.line, place: place)
      }
    }
  }

  private mutating func open(_ line: Int, _ what: String) -> Int {
    opened += 1
    open[opened] = Exchange(line: line, name: "line \(line): \(what)")
    return opened
  }

  /// A request or notification from the host.
  private mutating func checkSent(_ message: JSONValue, line: Int, place: Place) {
    let id = message["id"]
    guard let name = message["method"]?.stringValue else {
      add(line, id, place.member("method"), "envelope", .error, "a request needs a method (a string)")
      return
    }
    if name == "initialize", message["params"]?["protocolVersion"] != nil { isMCP = true }
    if isMCP {
      if let id, let current { expectReply(id.jsonString, (name, idPosition(place, line: line), id, current)) }
      if name == "tools/call" { checkToolCall(message, id: id, line: line, place: place) }
      if name == "notifications/cancelled", let target = message["params"]?["requestId"] {
        cancelled.insert(target.jsonString)
      }
      return
    }
    guard let method = contract.method(name), method["x-direction"]?.stringValue != "server-to-host" else {
      add(line, id, place.member("method"), "unknown-method", .error, "\(name) is not a method of the contract")
      return
    }
    for problem in contract.paramsProblems(message, method: method, path: place.prefix, pointer: place.pointer) {
      add(line, id, problem, at: place)
    }
    if name == "$/cancelRequest", let target = message["params"]?["id"] { cancelled.insert(target.jsonString) }
    if let id {
      guard method["x-notification"]?.boolValue != true else {
        add(line, id, place.member("id"), "envelope", .error, "\(name) is a notification: it takes no id")
        return
      }
      if let current { expectReply(id.jsonString, (name, idPosition(place, line: line), id, current)) }
    }
  }

  /// Where a request's id is: its no-reply warning, if it gets one at the end, points there.
  private func idPosition(_ place: Place, line: Int) -> SourcePosition {
    position(of: place.member("id").pointer, line: line)
  }

  /// A reply or a notification from the server.
  private mutating func checkWritten(_ message: JSONValue, line: Int, place: Place) {
    if let name = message["method"]?.stringValue {
      if isMCP { return }
      guard let method = contract.method(name), method["x-direction"]?.stringValue == "server-to-host" else {
        add(
          line, nil, place.member("method"), "unknown-notification", .error,
          "\(name) is not a notification of the server")
        return
      }
      for problem in contract.paramsProblems(message, method: method, path: place.prefix, pointer: place.pointer) {
        add(line, nil, problem, at: place)
      }
      return
    }
    let id = message["id"] ?? .null
    if let error = message["error"] {
      if error["code"]?.intValue == nil || error["message"]?.stringValue == nil {
        add(line, id, place.member("error"), "error", .error, "an error needs an integer code and a string message")
      }
      if !id.isNull { _ = settle(id.jsonString) }
      return
    }
    guard let result = message["result"] else {
      add(line, id, place, "envelope", .error, "a reply needs a result or an error")
      return
    }
    guard let request = settle(id.jsonString) else {
      add(line, id, place.member("id"), "unmatched-reply", .error, "a reply to no request the host sent")
      return
    }
    if isMCP, request.method == "tools/call", let tool = calledTools.removeValue(forKey: id.jsonString),
      let problem = contract.structuredContentProblem(result, tool: tool, path: place.prefix, pointer: place.pointer)
    {
      add(line, id, problem, at: place)
    }
    if !isMCP, let method = contract.method(request.method),
      var problem = contract.resultProblem(result, method: method, path: place.prefix, pointer: place.pointer)
    {
      problem.message = "\(request.method): \(problem.message)"
      add(line, id, problem, at: place)
    }
  }

  /// An MCP `tools/call {name, arguments}`: the tool known, its arguments valid.
  private mutating func checkToolCall(_ message: JSONValue, id: JSONValue?, line: Int, place: Place) {
    let params = place.member("params")
    guard let tool = message["params"]?["name"]?.stringValue, contract.isTool(tool) else {
      let named = message["params"]?["name"].map { $0.jsonString } ?? "no name"
      add(line, id, params.member("name"), "unknown-tool", .error, "\(named) is not a tool of the MCP face")
      return
    }
    if let problem = contract.argumentsProblem(
      message["params"]?["arguments"], tool: tool, path: place.prefix, pointer: place.pointer)
    {
      add(line, id, problem, at: place)
    }
    if let id { calledTools[id.jsonString] = tool }
  }

  /// Requests never answered (unless cancelled): the server owes a reply to each. Then every
  /// exchange still open is complete, in the order the host sent them.
  mutating func finish() {
    var unanswered: [Int: (key: String, request: Pending)] = [:]
    for (key, request) in pending { unanswered[request.exchange] = (key, request) }
    for number in open.keys.sorted() {
      if let (key, request) = unanswered[number], !cancelled.contains(key) {
        current = number
        let place = Place(path: "id", pointer: JSONPointer(["frame", "id"]))
        add(
          request.position.line, request.id, place, "no-reply", .warning,
          "\(request.method) was never answered in the trace", at: request.position)
      }
      complete(number)
    }
    pending = [:]
  }
}
