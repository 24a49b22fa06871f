/// A JSON pointer (RFC 6901): the reference tokens from the document's root to one value.
///
/// Tokens are kept decoded (`a/b` is one token, written `a~1b`); an empty token is a real key
/// (`""`), so `/a//b` has three tokens. The empty pointer is the whole document.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
  public var tokens: [String]

  public init(_ tokens: [String] = []) { self.tokens = tokens }

  /// Reads a pointer as written (`/notifications/0/data`); nil when it does not start with `/`
  /// (and is not empty).
  public init?(parsing text: String) {
    guard !text.isEmpty else {
      self.init()
      return
    }
    guard text.hasPrefix("/") else { return nil }
    let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    self.init(parts.map { Self.unescape(String($0)) })
  }

  /// This pointer with one more token.
  public func appending(_ token: String) -> JSONPointer { JSONPointer(tokens + [token]) }

  /// This pointer with an array index appended.
  public func appending(index: Int) -> JSONPointer { appending(String(index)) }

  /// This pointer followed by `other`'s tokens.
  public func appending(_ other: JSONPointer) -> JSONPointer { JSONPointer(tokens + other.tokens) }

  /// The pointer as written, `~` and `/` escaped as `~0` and `~1`.
  public var description: String {
    tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
  }

  /// The value this pointer names inside `root`, or nil when it names none.
  public func value(in root: JSONValue) -> JSONValue? {
    var node = root
    for token in tokens {
      switch node.plain {
      case .object(let object):
        guard let next = object[token] else { return nil }
        node = next
      case .array(let items):
        guard let index = Self.index(token), items.indices.contains(index) else { return nil }
        node = items[index]
      default:
        return nil
      }
    }
    return node
  }

  /// An array index token: decimal digits, no leading zero unless it is `0` (RFC 6901 §4).
  public static func index(_ token: String) -> Int? {
    guard let first = token.utf8.first, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      first != 0x30 || token.utf8.count == 1
    else { return nil }
    return Int(token)
  }

  /// `~1` read back as `/` and `~0` as `~`, in that order of precedence (RFC 6901 §4).
  private static func unescape(_ token: String) -> String {
    guard token.contains("~") else { return token }
    return token.replacing("~1", with: "/").replacing("~0", with: "~")
  }
}
