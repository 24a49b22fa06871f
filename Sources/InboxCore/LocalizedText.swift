import JSON

/// A text field of a createMessage notification as the Messages API takes it: one string for every
/// language, or an object of strings by language code (`{"en": "30% off", "de": "30% Rabatt"}`).
///
/// `text(for:)` picks what a device in a locale shows: the locale's tag, then each shorter prefix of
/// it (`de-AT` → `de`), then the payload's default language (`en`), then the first language written.
/// A blank member counts as absent.
public struct LocalizedText: Sendable, Hashable {
  /// The language every payload falls back to before its first member.
  public static let defaultLanguage = "en"

  /// One string for all languages.
  public var shared: String?
  /// The language codes of a language object, as written and in order (blank members left out).
  public private(set) var codes: [String] = []
  /// The text of each of `codes`.
  public private(set) var texts: [String] = []
  /// Where each language's first text is, by its code read as a tag once: a lookup costs the same
  /// in an object of thousands of languages as in one of two.
  private var firstIndex: [LanguageTag: Int] = [:]
  private static let defaultTags = LanguageTag(defaultLanguage).map { [$0] } ?? []

  /// Reads a string or a language object; nil for anything else (the caller warns).
  public init?(_ value: JSONValue) {
    switch value {
    case .string:
      shared = Lenient.text(value)
    case .object(let members):
      codes.reserveCapacity(members.count)
      texts.reserveCapacity(members.count)
      for member in members {
        if let text = Lenient.text(member.value) {
          if let tag = LanguageTag(member.key), firstIndex[tag] == nil { firstIndex[tag] = codes.count }
          codes.append(member.key)
          texts.append(text)
        }
      }
    default:
      return nil
    }
  }

  /// Whether this is a language object (so it can lack a language another field has).
  public var isByLanguage: Bool { shared == nil && !codes.isEmpty }

  /// Whether `code` (any case) has a text here; a shared text serves every language.
  public func has(_ code: String) -> Bool {
    guard shared == nil else { return true }
    // A code that is no tag (blank) matches a member whose code is none either.
    guard let wanted = LanguageTag(code) else { return codes.contains { LanguageTag($0) == nil } }
    return firstIndex[wanted] != nil
  }

  /// The text a device in `locale` shows (nil: the default language, then the first).
  public func text(for locale: String? = nil) -> String? {
    if let shared { return shared }
    for tag in (locale.flatMap(LanguageTag.init)?.fallbacks ?? []) + Self.defaultTags {
      if let index = firstIndex[tag] { return texts[index] }
    }
    return texts.first
  }
}
