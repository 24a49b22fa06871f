/// A BCP 47 language tag as a host names its user's language (`de-AT`, `pt-BR`, `zh-Hans-CN`), and
/// the lookup InboxKit's hosts expect: the tag, then each shorter prefix of it (`de-AT` → `de`).
///
/// Tags compare case-insensitively, and `_` is read as `-` (`de_AT`, as some platforms spell it).
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
  /// The subtags, lower-cased: `["de", "at"]`.
  public let subtags: [String]

  /// Nil for a blank tag.
  public init?(_ text: String) {
    let parts = text.trimmingWhitespace().lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
    guard let first = parts.first, !first.isEmpty else { return nil }
    subtags = parts.map(String.init)
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
