import JSON

/// One pass of `TraceContract` over a trace: remembers the requests sent so that each reply is
/// checked against the schema of the method it answers.
struct TraceCheck {
  let file: String
  let contract: TraceContract
  private(set) var findings: [TraceFinding] = []
  /// Requests not answered yet, by the id's JSON text: the method and the line that sent it.
  private var pending: [String: (method: String, line: Int, id: JSONValue)] = [:]
  private var cancelled: Set<String> = []
  /// An MCP host's trace: its methods are MCP's, not the contract's, so only the envelope and the
  /// pairing of replies with requests are checked.
  private var isMCP = false

  init(file: String, contract: TraceContract) {
    self.file = file
    self.contract = contract
  }

  mutating func add(
    _ line: Int, _ id: JSONValue?, _ path: String, _ rule: String, _ severity: TraceFinding.Severity,
    _ message: String
  ) {
    findings.append(
      TraceFinding(file: file, line: line, id: id, path: path, rule: rule, severity: severity, message: message))
  }

  mutating func check(_ record: TraceLog.Record) {
    if record.isText {
      if record.direction == .incoming {
        add(record.line, nil, "frame", "json", .error, "the host sent a frame that is not JSON")
      } else {
        add(record.line, nil, "frame", "json", .error, "the server wrote a frame that is not JSON")
      }
      return
    }
    for (prefix, message) in TraceLog.messages(of: record.frame) {
      let path = prefix.isEmpty ? "" : prefix + "."
      guard case .object = message else {
        add(record.line, nil, prefix.isEmpty ? "frame" : prefix, "envelope", .error, "a message must be an object")
        continue
      }
      if message["jsonrpc"]?.stringValue != "2.0" {
        add(record.line, message["id"], path + "jsonrpc", "envelope", .error, "jsonrpc must be \"2.0\"")
      }
      switch record.direction {
      case .incoming: checkSent(message, line: record.line, path: path)
      case .outgoing: checkWritten(message, line: record.line, path: path)
      }
    }
  }

  /// A request or notification from the host.
  private mutating func checkSent(_ message: JSONValue, line: Int, path: String) {
    let id = message["id"]
    guard let name = message["method"]?.stringValue else {
      add(line, id, path + "method", "envelope", .error, "a request needs a method (a string)")
      return
    }
    if name == "initialize", message["params"]?["protocolVersion"] != nil { isMCP = true }
    if isMCP {
      if let id { pending[id.jsonString] = (name, line, id) }
      if name == "notifications/cancelled", let target = message["params"]?["requestId"] {
        cancelled.insert(target.jsonString)
      }
      return
    }
    guard let method = contract.method(name), method["x-direction"]?.stringValue != "server-to-host" else {
      add(line, id, path + "method", "unknown-method", .error, "\(name) is not a method of the contract")
      return
    }
    for (where_, rule, reason) in contract.paramsProblems(message, method: method, path: path) {
      add(line, id, where_, rule, .error, reason)
    }
    if name == "$/cancelRequest", let target = message["params"]?["id"] { cancelled.insert(target.jsonString) }
    if let id {
      guard method["x-notification"]?.boolValue != true else {
        add(line, id, path + "id", "envelope", .error, "\(name) is a notification: it takes no id")
        return
      }
      pending[id.jsonString] = (name, line, id)
    }
  }

  /// A reply or a notification from the server.
  private mutating func checkWritten(_ message: JSONValue, line: Int, path: String) {
    if let name = message["method"]?.stringValue {
      if isMCP { return }
      guard let method = contract.method(name), method["x-direction"]?.stringValue == "server-to-host" else {
        add(line, nil, path + "method", "unknown-notification", .error, "\(name) is not a notification of the server")
        return
      }
      for (where_, rule, reason) in contract.paramsProblems(message, method: method, path: path) {
        add(line, nil, where_, rule, .error, reason)
      }
      return
    }
    let id = message["id"] ?? .null
    if let error = message["error"] {
      if error["code"]?.intValue == nil || error["message"]?.stringValue == nil {
        add(line, id, path + "error", "error", .error, "an error needs an integer code and a string message")
      }
      if !id.isNull { pending[id.jsonString] = nil }
      return
    }
    guard let result = message["result"] else {
      add(line, id, path, "envelope", .error, "a reply needs a result or an error")
      return
    }
    guard let request = pending.removeValue(forKey: id.jsonString) else {
      add(line, id, path + "id", "unmatched-reply", .error, "a reply to no request the host sent")
      return
    }
    if !isMCP, let method = contract.method(request.method),
      let (where_, reason) = contract.resultProblem(result, method: method, path: path)
    {
      add(line, id, where_, "result", .error, "\(request.method): \(reason)")
    }
  }

  /// Requests never answered (unless cancelled): the server owes a reply to each.
  mutating func finish() {
    for (key, request) in pending where !cancelled.contains(key) {
      add(request.line, request.id, "id", "no-reply", .warning, "\(request.method) was never answered in the trace")
    }
  }
}
