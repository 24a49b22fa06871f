/// One request as the listener hands it over, whole.
public struct HTTPRequest: Sendable {
  public var method: String
  public var path: String
  /// Lower-cased names, in the order they came.
  public var headers: [(name: String, value: String)]
  public var authorization: String?
  public var body: [UInt8]
  /// The body was longer than the listener's limit (and `body` is empty).
  public var tooLarge: Bool

  public init(
    method: String, path: String, headers: [(name: String, value: String)] = [], authorization: String? = nil,
    body: [UInt8] = [], tooLarge: Bool = false
  ) {
    self.method = method
    self.path = path
    self.headers = headers
    self.authorization = authorization
    self.body = body
    self.tooLarge = tooLarge
  }
}

/// What the listener plays out for a request.
public struct HTTPReply: Sendable, Equatable {
  public var status: Int
  public var body: [UInt8]
  public var contentType: String
  /// Milliseconds before anything is sent.
  public var delayMilliseconds = 0
  /// The body sent `piece` bytes at a time, `intervalMilliseconds` apart.
  public var drip: (piece: Int, intervalMilliseconds: Int)?
  /// No reply at all: the connection is reset.
  public var reset = false

  public init(status: Int, body: [UInt8], contentType: String = "application/json") {
    self.status = status
    self.body = body
    self.contentType = contentType
  }

  public static func == (lhs: HTTPReply, rhs: HTTPReply) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body && lhs.contentType == rhs.contentType
      && lhs.delayMilliseconds == rhs.delayMilliseconds && lhs.drip?.piece == rhs.drip?.piece
      && lhs.drip?.intervalMilliseconds == rhs.drip?.intervalMilliseconds && lhs.reset == rhs.reset
  }
}
