import JSON

/// The service's reply envelope: `{"status_code", "status_message", "response"}`.
enum Envelope {
  static func reply(_ code: Int, _ message: String, _ response: JSONValue = .null, http: Int = 200) -> HTTPReply {
    let body: JSONValue = ["status_code": .int(Int64(code)), "status_message": .string(message), "response": response]
    return HTTPReply(status: http, body: body.serialized())
  }
}

extension FaultRule.Kind {
  /// What a fault that refuses the request answers instead (delay and drip change the normal reply).
  var reply: HTTPReply {
    switch self {
    case .http(let status): return Envelope.reply(status, "Injected fault", http: status)
    case .code(let code): return Envelope.reply(code, code == 210 ? "Argument error" : "Injected fault")
    case .garbage:
      return HTTPReply(status: 200, body: Array(#"{"status_code": 200, "response": {"messages": [ \#u{1}oops"#.utf8))
    case .empty: return HTTPReply(status: 200, body: [])
    case .reset, .delay, .drip:
      var reply = HTTPReply(status: 200, body: [])
      reply.reset = true
      return reply
    }
  }

  /// The status_code its reply carries, if any.
  var statusCode: Int? {
    switch self {
    case .http(let code), .code(let code): return code
    default: return nil
    }
  }
}
