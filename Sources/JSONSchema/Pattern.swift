import Synchronization

/// The regular expressions of JSON Schema's `pattern`, on the standard library's `Regex`: matched
/// over Unicode scalars with ASCII-only `\d \w \s` (as ECMA-262 reads them), `.` stopping at a line
/// break, and unanchored, as `pattern` is (`^`/`$` anchor it).
///
/// A schema's patterns are few and checked often, so each is compiled on first use and kept
/// (`compiled(_:)`); a pattern that cannot be read is remembered as such too.
struct Pattern: @unchecked Sendable {
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

  /// True when the pattern matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    (try? regex.firstMatch(in: text)) != nil
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
