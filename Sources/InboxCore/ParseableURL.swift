import JSON

/// The one URL check of the engine (docs/engine.md#parseable-urls), so buttons, slides, video and wallet agree.
///
/// A parseable URL is a string that, after trimming surrounding whitespace, is non-empty and starts with a
/// scheme as RFC 3986 spells it (a letter, then letters, digits, `+`, `-` or `.`, then `:`). `example.com` has
/// no scheme and is refused; `myapp://product/1` and `mailto:a@b.c` pass under `.anyScheme`. Characters a URL
/// can never carry unencoded are refused (white space, controls, `"<>\^`{|}` and a `%` not followed by two
/// hex digits); other non-ASCII characters are accepted. `.httpOnly` also needs `//` and a non-empty host.
/// The URL keeps the text as the marketer wrote it (trimmed), not a re-encoded form, so the host opens
/// exactly what was sent.
public struct ParseableURL: Sendable, Hashable, CustomStringConvertible {
  /// Which schemes a field accepts.
  public enum Policy: Sendable, Hashable {
    /// Any scheme: deep links (`myapp://...`), `mailto:`, `https:`. For buttons, slides, images and links.
    case anyScheme
    /// Only `http` or `https` with a host. For video and wallet URLs: the player and the pass downloader
    /// would otherwise happily read `file://` (local files) or talk `ftp://`, so a payload could make the
    /// host open things it never meant to fetch from the network.
    case httpOnly
  }

  /// The trimmed text of the URL.
  public let string: String
  /// The scheme, lower-cased (`https`, `myapp`).
  public let scheme: String

  /// Checks `text` against `policy`; nil when it is not a parseable URL under that policy.
  public init?(_ text: String, policy: Policy) {
    let trimmed = text.trimmingWhitespace()
    guard let scheme = Self.scheme(of: trimmed), Self.hasOnlyURLCharacters(trimmed) else { return nil }
    let folded = scheme.lowercased()
    if policy == .httpOnly {
      let rest = trimmed.unicodeScalars.dropFirst(scheme.unicodeScalars.count + 1)
      guard folded == "http" || folded == "https", let host = Self.host(afterScheme: rest), !host.isEmpty else {
        return nil
      }
    }
    self.string = trimmed
    self.scheme = folded
  }

  /// The scheme before the first `:`, if it is one.
  private static func scheme(of text: String) -> String? {
    let utf8 = text.utf8
    guard let colonByte = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    // A colon followed by an ASCII byte (or nothing) is a character of its own, the first `:` the
    // character search below finds; the scheme is then read from the bytes before it.
    let next = utf8.index(after: colonByte)
    if next == utf8.endIndex || utf8[next] < 0x80 {
      let candidate = utf8[..<colonByte]
      guard let first = candidate.first, first.isASCIILetter, candidate.allSatisfy(\.isSchemeByte) else { return nil }
      return String(text.unicodeScalars[..<colonByte])
    }
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let candidate = text[..<colon].unicodeScalars
    guard let first = candidate.first, first.isASCIILetter,
      candidate.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
    else { return nil }
    return String(candidate)
  }

  /// No control character, space or character RFC 3986 never allows unescaped; every `%` starts an
  /// escape. Read as UTF-8 bytes: the characters refused are ASCII, and every byte of a non-ASCII
  /// character is ≥ 0x80, so none is mistaken for one.
  private static func hasOnlyURLCharacters(_ text: String) -> Bool {
    var text = text
    return text.withUTF8(hasOnlyURLCharacters)
  }

  private static func hasOnlyURLCharacters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for (offset, byte) in bytes.enumerated() {
      switch byte {
      case 0...0x20, 0x7F, 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D: return false  // "<>\^`{|}
      default: break
      }
      if byte == UInt8(ascii: "%") {
        guard offset + 2 < bytes.count, bytes[offset + 1].isHexDigit, bytes[offset + 2].isHexDigit else {
          return false
        }
      }
    }
    return true
  }

  /// The host of `//userinfo@host:port/...`, or nil without `//`.
  private static func host(afterScheme rest: Substring.UnicodeScalarView) -> String? {
    guard rest.starts(with: "//".unicodeScalars) else { return nil }
    let authority = rest.dropFirst(2).prefix { !"/?#".unicodeScalars.contains($0) }
    var hostAndPort = authority
    if let at = authority.lastIndex(of: "@") { hostAndPort = authority[authority.index(after: at)...] }
    if hostAndPort.first == "[" {
      guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
      return String(hostAndPort[hostAndPort.startIndex...close])
    }
    return String(hostAndPort.prefix { $0 != ":" })
  }

  /// Checks a JSON value: only strings can be URLs.
  public init?(_ value: JSONValue?, policy: Policy) {
    guard let text = value?.stringValue else { return nil }
    self.init(text, policy: policy)
  }

  /// True for `http` and `https`.
  public var isHTTP: Bool { scheme == "http" || scheme == "https" }

  /// The URL text.
  public var description: String { string }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension UInt8 {
  fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }

  /// A letter, a digit, `+`, `-` or `.`.
  fileprivate var isSchemeByte: Bool {
    isASCIILetter || (0x30...0x39).contains(self) || self == 0x2B || self == 0x2D || self == 0x2E
  }

  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
