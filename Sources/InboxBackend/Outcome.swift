import JSON

/// What became of one request: the reply, and what its log line says of it.
struct Outcome {
  var reply: HTTPReply
  var statusCode: Int?
  var fault: FaultRule?
  var applied = false
  /// accepted, refused or none: never the token itself.
  var token = "none"

  /// The request's log line (docs/backend-double.md#what-it-serves).
  func record(of request: HTTPRequest, method: String, body: JSONValue?, at time: Int64) -> JSONValue {
    var headers = JSONObject()
    for header in request.headers where header.name != "authorization" { headers[header.name] = .string(header.value) }
    var record: JSONObject = [
      "at": .int(time), "method": .string(method.isEmpty ? request.path : method),
      "httpMethod": .string(request.method), "path": .string(request.path), "headers": .object(headers),
      "token": .string(token),
    ]
    if let body {
      record["body"] = body
    } else if !request.body.isEmpty || request.tooLarge {
      record["bodyBytes"] = .int(Int64(request.body.count))
      record["tooLarge"] = .bool(request.tooLarge)
    }
    var summary: JSONObject = ["httpStatus": .int(reply.reset ? 0 : Int64(reply.status)), "applied": .bool(applied)]
    if let statusCode { summary["statusCode"] = .int(Int64(statusCode)) }
    if let fault { summary["fault"] = .string(fault.description) }
    record["reply"] = .object(summary)
    return .object(record)
  }
}
