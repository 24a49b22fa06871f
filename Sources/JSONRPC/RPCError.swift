import JSON

/// An error reply: `{code, message, data?}`. Handlers throw it; anything else thrown is mapped by `init(_:)`.
public struct RPCError: Error, Sendable, Hashable {
  public var code: ErrorCode
  public var message: String
  public var data: JSONValue?

  public init(_ code: ErrorCode, _ message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The one funnel from any error to the wire: RPC errors pass through, cancellation becomes -32800,
  /// anything else is an internal error that names its type (never its payload).
  public init(_ error: any Error) {
    switch error {
    case let rpc as RPCError: self = rpc
    case is CancellationError: self = .cancelled
    case let convertible as RPCErrorConvertible: self = convertible.rpcError
    default:
      self.init(.internalError, "Internal error", data: ["reason": .string(String(describing: error))])
    }
  }

  public var json: JSONValue {
    var object: JSONObject = ["code": .int(Int64(code.rawValue)), "message": .string(message)]
    if let data { object["data"] = data }
    return .object(object)
  }

  // MARK: - Common errors

  public static let cancelled = RPCError(.requestCancelled, "Request cancelled")

  /// -32602 naming the parameter (a JSON path such as `payload.buttons[2]`) and the rule broken.
  public static func invalidParams(_ param: String, _ reason: String) -> RPCError {
    RPCError(
      .invalidParams, "Invalid params: \(param): \(reason)",
      data: ["param": .string(param), "reason": .string(reason)])
  }

  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(.methodNotFound, "Method not found", data: ["method": .string(method)])
  }

  /// A reply that would pass the limit of reply bytes in flight: the request ran, its result is not sent.
  public static func replyTooLarge(size: Int, limit: Int) -> RPCError {
    invalidRequest(
      "the reply (\(size) bytes) would pass the limit of \(limit) reply bytes in flight (--max-reply-bytes); "
        + "the request ran but its result is not sent: send it alone or in a smaller batch",
      data: ["limit": .int(Int64(limit)), "size": .int(Int64(size)), "ran": true])
  }

  public static func invalidRequest(_ reason: String, data extra: JSONObject = [:]) -> RPCError {
    var data = extra
    data["reason"] = .string(reason)
    return RPCError(.invalidRequest, "Invalid Request", data: .object(data))
  }
}

/// A domain error that knows its wire form (engine and store errors adopt it in the server).
public protocol RPCErrorConvertible: Error {
  var rpcError: RPCError { get }
}

/// Thrown by handlers that notice their request was cancelled.
public struct CancellationError: Error, Sendable {
  public init() {}
}
