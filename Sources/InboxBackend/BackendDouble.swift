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

  public func handle(_ request: HTTPRequest) -> HTTPReply {
    let method = request.path.hasPrefix(settings.prefix) ? String(request.path.dropFirst(settings.prefix.count)) : ""
    let body = try? JSONValue.parse(bytes: request.body)
    let outcome = answer(request, method: method, body: body)
    log?.write(outcome.record(of: request, method: method, body: body, at: clock()))
    return outcome.reply
  }

  private func answer(_ request: HTTPRequest, method: String, body: JSONValue?) -> Outcome {
    if request.tooLarge { return Outcome(reply: Envelope.reply(413, "Request too large", http: 413), statusCode: 413) }
    guard FaultRule.methods.contains(method) else {
      return Outcome(reply: HTTPReply(status: 404, body: Array("not found\n".utf8), contentType: "text/plain"))
    }
    guard request.method == "POST" else {
      return Outcome(reply: HTTPReply(status: 405, body: Array("POST only\n".utf8), contentType: "text/plain"))
    }
    let fault = faults.take(for: method)
    if let fault, !fault.kind.handlesRequest {
      return Outcome(reply: fault.kind.reply, statusCode: fault.kind.statusCode, fault: fault)
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
      return Outcome(reply: Envelope.reply(401, "Unauthorized", http: 401), statusCode: 401, token: token)
    }
    guard let fields = body?["request"]?.objectValue else {
      return Outcome(reply: Envelope.reply(210, "Argument error: no request object"), statusCode: 210, token: token)
    }
    if let application = settings.application, fields["application"]?.stringValue != application {
      return Outcome(reply: Envelope.reply(210, "Application not found"), statusCode: 210, token: token)
    }
    let user = fields["userId"]?.stringValue ?? fields["hwid"]?.stringValue ?? ""
    do {
      if method == "getInboxMessages" {
        let listing = try inbox.listing(for: user)
        return Outcome(reply: Envelope.reply(200, "OK", listing), statusCode: 200, applied: true, token: token)
      }
      let order = fields["inbox_code"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
      guard let order, let status = fields["status"]?.intValue, (2...4).contains(status) else {
        return Outcome(reply: Envelope.reply(210, "Argument error"), statusCode: 210, token: token)
      }
      _ = try inbox.apply(status: status, order: order, for: user)
      return Outcome(reply: Envelope.reply(200, "OK"), statusCode: 200, applied: true, token: token)
    } catch {
      return Outcome(reply: Envelope.reply(503, "Too many users", http: 503), statusCode: 503, token: token)
    }
  }
}
