import JSON

/// One thing `check-trace` says about one message of a trace: where (file, line, the message's id,
/// a JSON path inside the frame), which rule, how much it matters, and why.
struct TraceFinding {
  enum Severity: String {
    case warning, error
  }

  var file: String
  var line: Int
  /// The JSON-RPC id of the message (or of the request a reply answers); nil for none.
  var id: JSONValue?
  /// Where in the frame: `params.limit`, `[1].result.items[0].kind`, or `frame` for the whole.
  var path: String
  var rule: String
  var severity: Severity
  var message: String

  /// `trace.jsonl:12: id 3: params.limit: error [params] ...`.
  var text: String {
    let idText = id.map { " id \($0.jsonString):" } ?? ""
    return "\(file):\(line):\(idText) \(path): \(severity.rawValue) [\(rule)] \(message)"
  }

  var json: JSONValue {
    var object: JSONObject = ["file": .string(file), "line": .int(Int64(line))]
    object["id"] = id ?? .null
    object["path"] = .string(path)
    object["rule"] = .string(rule)
    object["severity"] = .string(severity.rawValue)
    object["message"] = .string(message)
    return .object(object)
  }
}
