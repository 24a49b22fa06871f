/// One `--fault METHOD:KIND[:COUNT]` rule: what the double does instead of its normal reply.
public struct FaultRule: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// This HTTP status (400–599), with an envelope whose status_code says the same.
    case http(Int)
    /// HTTP 200 with this status_code in the envelope (210: the service's "Argument error").
    case code(Int)
    /// The request is handled, and its reply waits this many milliseconds.
    case delay(Int)
    /// The request is handled, and its reply's body is sent a few bytes at a time over this long.
    case drip(Int)
    /// No reply: the connection is reset.
    case reset
    /// HTTP 200 with a body that is not JSON.
    case garbage
    /// HTTP 200 with an empty body.
    case empty

    /// Whether the request is still applied (a slow backend that does its work).
    public var handlesRequest: Bool {
      switch self {
      case .delay, .drip: return true
      default: return false
      }
    }
  }

  /// nil: any method.
  public var method: String?
  public var kind: Kind
  /// nil: every matching request.
  public var count: Int?

  public static let grammar = """
    --fault METHOD:KIND[:COUNT]  (repeatable; rules are tried in order, each used COUNT times)
      METHOD  getInboxMessages, inboxStatus, or * for either
      KIND    400-599     that HTTP status, with an envelope whose status_code says it
              code=NNN    HTTP 200 with status_code NNN (code=210: the service's Argument error)
              delay=MS    the request is applied; the reply comes MS milliseconds late
              drip=MS     the request is applied; the reply's body trickles out over MS milliseconds
              reset       the connection is reset, nothing is applied or answered
              garbage     HTTP 200 with a body that is not JSON
              empty       HTTP 200 with an empty body
      COUNT   how many matching requests it takes (default 1), or * for all of them
      Only delay and drip apply the request; every other kind refuses it unapplied.
      Example: --fault 'inboxStatus:500:2' --fault 'getInboxMessages:delay=1500'
    """

  public struct Invalid: Error, CustomStringConvertible {
    public var description: String
  }

  public static let methods = ["getInboxMessages", "inboxStatus"]

  public init(method: String?, kind: Kind, count: Int? = 1) {
    self.method = method
    self.kind = kind
    self.count = count
  }

  public init(_ text: String) throws(Invalid) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2 || parts.count == 3 else {
      throw Invalid(description: "--fault \(text): expected METHOD:KIND[:COUNT]")
    }
    guard parts[0] == "*" || Self.methods.contains(parts[0]) else {
      throw Invalid(description: "--fault \(text): the method is getInboxMessages, inboxStatus or *")
    }
    method = parts[0] == "*" ? nil : parts[0]
    kind = try Self.kind(parts[1], in: text)
    if parts.count == 3, parts[2] == "*" {
      count = nil
    } else if parts.count == 3 {
      guard let number = Int(parts[2]), number > 0 else {
        throw Invalid(description: "--fault \(text): COUNT is a positive whole number or *")
      }
      count = number
    } else {
      count = 1
    }
  }

  private static func kind(_ word: String, in text: String) throws(Invalid) -> Kind {
    switch word {
    case "reset": return .reset
    case "garbage": return .garbage
    case "empty": return .empty
    default: break
    }
    if let status = Int(word), (400...599).contains(status) { return .http(status) }
    let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
    if pair.count == 2, let number = Int(pair[1]) {
      switch pair[0] {
      case "code" where (0...999).contains(number) && number != 200: return .code(number)
      case "delay" where (0...600_000).contains(number): return .delay(number)
      case "drip" where (1...600_000).contains(number): return .drip(number)
      default: break
      }
    }
    throw Invalid(
      description: "--fault \(text): KIND is 400-599, code=NNN (not 200), delay=MS, drip=MS, reset, garbage or empty")
  }

  public var description: String {
    let word: String
    switch kind {
    case .http(let status): word = String(status)
    case .code(let code): word = "code=\(code)"
    case .delay(let ms): word = "delay=\(ms)"
    case .drip(let ms): word = "drip=\(ms)"
    case .reset: word = "reset"
    case .garbage: word = "garbage"
    case .empty: word = "empty"
    }
    return "\(method ?? "*"):\(word)"
  }
}
