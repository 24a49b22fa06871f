import JSON

/// One element of a frame, classified (JSON-RPC 2.0 §4, §5).
enum Incoming: Sendable {
  /// A call: `id` present (a string, a number, or null).
  case request(id: JSONValue, method: String, params: JSONValue?)
  /// No `id` member: never answered, even on error.
  case notification(method: String, params: JSONValue?)
  /// Not a valid request; `id` is the one recovered, if it was readable, else null.
  case invalid(id: JSONValue, error: RPCError)
  /// A response object (`result` or `error`, no `method`): never answered, which could make two
  /// peers answer each other forever; given to a face that sends requests of its own
  /// (`Connection.Configuration.onResponse`), else ignored.
  case response(JSONValue)

  init(_ value: JSONValue) {
    guard case .object(let object) = value else {
      self = .invalid(id: .null, error: .invalidRequest("a request must be an object, got \(value.typeName)"))
      return
    }
    let id = object["id"]
    if let id, !Self.isScalarID(id) {
      self = .invalid(id: .null, error: .invalidRequest("id must be a string, a number or null, got \(id.typeName)"))
      return
    }
    let replyID = id ?? .null
    if object["method"] == nil, id != nil, object["result"] != nil || object["error"] != nil {
      self = .response(value)
      return
    }
    guard object["jsonrpc"] == .string("2.0") else {
      self = .invalid(id: replyID, error: .invalidRequest("jsonrpc must be exactly \"2.0\""))
      return
    }
    guard let method = object["method"]?.stringValue else {
      self = .invalid(id: replyID, error: .invalidRequest("method must be a string"))
      return
    }
    var params = object["params"]
    switch params {
    case .null?: params = nil
    case nil, .object?, .array?: break
    case let other?:
      self = .invalid(
        id: replyID, error: .invalidRequest("params must be an object or an array, got \(other.typeName)"))
      return
    }
    if let id {
      self = .request(id: id, method: method, params: params)
    } else {
      self = .notification(method: method, params: params)
    }
  }

  private static func isScalarID(_ id: JSONValue) -> Bool {
    switch id {
    case .string, .int, .double, .null: return true
    default: return false
    }
  }
}

/// Builds the response objects, in the member order of the specification.
enum Response {
  static func result(id: JSONValue, _ result: JSONValue) -> JSONValue {
    .object(["jsonrpc": "2.0", "id": id, "result": result])
  }

  static func error(id: JSONValue, _ error: RPCError) -> JSONValue {
    .object(["jsonrpc": "2.0", "id": id, "error": error.json])
  }

  static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
    .object(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }
}
