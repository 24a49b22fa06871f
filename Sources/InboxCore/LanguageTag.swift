/// A BCP 47 language tag as a host names its user's language (`de-AT`, `pt-BR`, `zh-Hans-CN`), and
/// the lookup InboxKit's hosts expect: the tag, then each shorter prefix of it (`de-AT` → `de`).
///
/// Tags compare case-insensitively, and `_` is read as `-` (`de_AT`, as some platforms spell it).
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
  /// The subtags, lower-cased: `["de", "at"]`.
  public let subtags: [String]

  /// Nil for a blank tag.
  public init?(_ text: String) {
    if let subtags = Self.asciiSubtags(text) {
      guard !subtags.isEmpty else { return nil }
      self.subtags = subtags
      return
    }
    let parts = text.trimmingWhitespace().lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
    guard let first = parts.first, !first.isEmpty else { return nil }
    subtags = parts.map(String.init)
  }

  /// The subtags of a tag of ASCII letters, digits, `-` and `_` only (what payloads write), split
  /// and lower-cased byte by byte: the same as trimming, lower-casing and splitting it as text, at a
  /// fraction of the cost. Nil for any other text.
  private static func asciiSubtags(_ text: String) -> [String]? {
    // Lower-case letters and digits alone (`en`, `de`) are the one subtag, as written.
    var plain = true
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"): plain = false
      default: return nil
      }
    }
    if plain { return text.isEmpty ? [] : [text] }
    var subtags: [String] = []
    var current: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 0x20)
      case UInt8(ascii: "-"), UInt8(ascii: "_"):
        if !current.isEmpty { subtags.append(String(decoding: current, as: UTF8.self)) }
        current.removeAll(keepingCapacity: true)
      default: return nil
      }
    }
    if !current.isEmpty { subtags.append(String(decoding: current, as: UTF8.self)) }
    return subtags
  }

  /// Whether `text` has a tag's shape: 2-8 letters, then subtags of 1-8 letters or digits, joined
  /// by `-` or `_` (`^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$`, the schema's pattern).
  public static func isWellFormed(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: "_", omittingEmptySubsequences: false)
    }
    guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy { part in
      (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// The primary language subtag: `de` of `de-AT`.
  public var language: String { subtags[0] }

  /// `de-at`, normalised.
  public var description: String { subtags.joined(separator: "-") }

  /// The tag and its prefixes, longest first: `de-at-x-y`, `de-at-x`, `de-at`, `de`.
  public var fallbacks: [LanguageTag] {
    (1...subtags.count).reversed().map { LanguageTag(subtags: Array(subtags.prefix($0))) }
  }

  private init(subtags: [String]) { self.subtags = subtags }
}
