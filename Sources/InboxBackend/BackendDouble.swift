import InboxCore
import JSON
import Posix

/// The Pushwoosh inbox backend's two calls, answered from a `BackendInbox`: the token and the
/// application checked, faults played by rule, every request logged with what became of it.
public struct BackendDouble: Sendable {
  public struct Settings: Sendable {
    /// nil: any application code is accepted.
    public var application: String?
    /// nil: any token, or none, is accepted.
    public var token: String?
    /// Where the calls live: `{prefix}getInboxMessages`.
    public var prefix = "/json/1.3/"
    public init() {}
  }

  public let settings: Settings
  public let inbox: BackendInbox
  public let faults: FaultPlan
  public let log: RequestLog?
  private let clock: @Sendable () -> Int64

  public init(
    settings: Settings, inbox: BackendInbox, faults: FaultPlan, log: RequestLog?,
    clock: @escaping @Sendable () -> Int64 = { Clock.unixMilliseconds }
  ) {
    self.settings = settings
    self.inbox = inbox
    self.faults = faults
    self.log = log
    self.clock = clock
  }

  /// What became of one request, for its log line.
  struct Outcome {
    var reply: HTTPReply
    var statusCode: Int?
    var fault: FaultRule?
    var applied = false
    var token = "none"
  }

  public func handle(_ request: HTTPRequest) -> HTTPReply {
    let method = request.path.hasPrefix(settings.prefix) ? String(request.path.dropFirst(settings.prefix.count)) : ""
    let body = try? JSONValue.parse(bytes: request.body)
    let outcome = answer(request, method: method, body: body)
    log?.write(record(request, method: method, body: body, outcome))
    return outcome.reply
  }

  private func answer(_ request: HTTPRequest, method: String, body: JSONValue?) -> Outcome {
    if request.tooLarge { return Outcome(reply: Self.envelope(413, "Request too large", http: 413), statusCode: 413) }
    guard FaultRule.methods.contains(method) else {
      return Outcome(reply: HTTPReply(status: 404, body: Array("not found\n".utf8), contentType: "text/plain"))
    }
    guard request.method == "POST" else {
      return Outcome(reply: HTTPReply(status: 405, body: Array("POST only\n".utf8), contentType: "text/plain"))
    }
    let fault = faults.take(for: method)
    if let fault, !fault.kind.handlesRequest {
      return Outcome(reply: Self.faultReply(fault.kind), statusCode: Self.statusCode(of: fault.kind), fault: fault)
    }
    var outcome = serve(request, method: method, body: body)
    outcome.fault = fault
    switch fault?.kind {
    case .delay(let ms): outcome.reply.delayMilliseconds = ms
    case .drip(let ms):
      let pieces = max(1, min(outcome.reply.body.count, 100))
      outcome.reply.drip = (max(1, outcome.reply.body.count / pieces), ms / pieces)
    default: break
    }
    return outcome
  }

  /// The service's own answer, faults aside.
  private func serve(_ request: HTTPRequest, method: String, body: JSONValue?) -> Outcome {
    var token = request.authorization == nil ? "none" : "accepted"
    if let expected = settings.token, request.authorization != "Token \(expected)" {
      token = "refused"
      return Outcome(reply: Self.envelope(401, "Unauthorized", http: 401), statusCode: 401, token: token)
    }
    guard let fields = body?["request"]?.objectValue else {
      return Outcome(reply: Self.envelope(210, "Argument error: no request object"), statusCode: 210, token: token)
    }
    if let application = settings.application, fields["application"]?.stringValue != application {
      return Outcome(reply: Self.envelope(210, "Application not found"), statusCode: 210, token: token)
    }
    let user = fields["userId"]?.stringValue ?? fields["hwid"]?.stringValue ?? ""
    do {
      if method == "getInboxMessages" {
        let listing = try inbox.listing(for: user)
        return Outcome(reply: Self.envelope(200, "OK", listing), statusCode: 200, applied: true, token: token)
      }
      let order = fields["inbox_code"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
      guard let order, let status = fields["status"]?.intValue, (2...4).contains(status) else {
        return Outcome(reply: Self.envelope(210, "Argument error"), statusCode: 210, token: token)
      }
      _ = try inbox.apply(status: status, order: order, for: user)
      return Outcome(reply: Self.envelope(200, "OK"), statusCode: 200, applied: true, token: token)
    } catch {
      return Outcome(reply: Self.envelope(503, "Too many users", http: 503), statusCode: 503, token: token)
    }
  }

  static func envelope(_ code: Int, _ message: String, _ response: JSONValue = .null, http: Int = 200) -> HTTPReply {
    let body: JSONValue = ["status_code": .int(Int64(code)), "status_message": .string(message), "response": response]
    return HTTPReply(status: http, body: body.serialized())
  }

  static func faultReply(_ kind: FaultRule.Kind) -> HTTPReply {
    switch kind {
    case .http(let status): return envelope(status, "Injected fault", http: status)
    case .code(let code): return envelope(code, code == 210 ? "Argument error" : "Injected fault")
    case .garbage:
      return HTTPReply(status: 200, body: Array(#"{"status_code": 200, "response": {"messages": [ \#u{1}oops"#.utf8))
    case .empty: return HTTPReply(status: 200, body: [])
    case .reset, .delay, .drip:
      var reply = HTTPReply(status: 200, body: [])
      reply.reset = true
      return reply
    }
  }

  static func statusCode(of kind: FaultRule.Kind) -> Int? {
    switch kind {
    case .http(let code), .code(let code): return code
    default: return nil
    }
  }

  private func record(_ request: HTTPRequest, method: String, body: JSONValue?, _ outcome: Outcome) -> JSONValue {
    var headers = JSONObject()
    for header in request.headers where header.name != "authorization" { headers[header.name] = .string(header.value) }
    var record: JSONObject = [
      "at": .int(clock()), "method": .string(method.isEmpty ? request.path : method),
      "httpMethod": .string(request.method), "path": .string(request.path), "headers": .object(headers),
      "token": .string(outcome.token),
    ]
    if let body {
      record["body"] = body
    } else if !request.body.isEmpty || request.tooLarge {
      record["bodyBytes"] = .int(Int64(request.body.count))
      record["tooLarge"] = .bool(request.tooLarge)
    }
    var reply: JSONObject = [
      "httpStatus": .int(outcome.reply.reset ? 0 : Int64(outcome.reply.status)), "applied": .bool(outcome.applied),
    ]
    if let code = outcome.statusCode { reply["statusCode"] = .int(Int64(code)) }
    if let fault = outcome.fault { reply["fault"] = .string(fault.description) }
    record["reply"] = .object(reply)
    return .object(record)
  }
}
