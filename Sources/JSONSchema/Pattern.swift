import Synchronization

/// The regular expressions of JSON Schema's `pattern`, on the standard library's `Regex`: matched
/// over Unicode scalars with ASCII-only `\d \w \s` (as ECMA-262 reads them), `.` stopping at a line
/// break, and unanchored, as `pattern` is (`^`/`$` anchor it).
///
/// A schema's patterns are few and checked often, so each is compiled on first use and kept
/// (`compiled(_:)`); a pattern that cannot be read is remembered as such too.
///
/// A class: a compiled schema holds its patterns among its checks, and a `Regex` held inline (its
/// layout is not known when this module is compiled) would make every copy of a check a slow one.
final class Pattern: @unchecked Sendable {
  /// Why a pattern could not be read.
  struct Invalid: Error {}

  // A compiled Regex is immutable; it is shared by every thread that validates params.
  private let regex: Regex<AnyRegexOutput>

  init(_ source: String) throws(Invalid) {
    do {
      regex = try Regex(source).matchingSemantics(.unicodeScalar).asciiOnlyCharacterClasses()
    } catch {
      throw Invalid()
    }
  }

  /// What `matches` answered for short ASCII texts: a schema's patterns mostly meet the same few
  /// names and codes (language tags, display types), and a lookup costs a fraction of a match.
  /// ASCII only, because `String` keys compare by canonical equivalence, under which a non-ASCII
  /// text (the Kelvin sign) can equal an ASCII one the pattern treats differently.
  private let answers = Mutex<[String: Bool]>([:])
  private static let answersLimit = 1024
  private static let answerableLength = 64

  /// True when the pattern matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    let answerable = text.utf8.count <= Self.answerableLength && text.utf8.allSatisfy { $0 < 0x80 }
    if answerable, let known = answers.withLock({ $0[text] }) { return known }
    let found = (try? regex.firstMatch(in: text)) != nil
    if answerable {
      answers.withLock { answers in
        if answers.count < Self.answersLimit { answers[text] = found }
      }
    }
    return found
  }

  private static let cache = Mutex<[String: Pattern?]>([:])

  /// The pattern for `source`, compiled once per process; nil when it cannot be read.
  static func compiled(_ source: String) -> Pattern? {
    if let known = cache.withLock({ $0[source] }) { return known }
    let pattern = try? Pattern(source)
    cache.withLock { $0[source] = pattern }
    return pattern
  }
}
