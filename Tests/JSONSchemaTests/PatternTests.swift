import Testing

@testable import JSONSchema

/// `pattern` on the standard library's Regex: one row per construct, plus every pattern Schemas/ uses.
struct PatternTests {
  @Test(arguments: [
    ("abc", "xxabcxx", true),
    ("^abc$", "xxabcxx", false),
    ("^a.c$", "abc", true),
    ("^a.c$", "a\nc", false),
    ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2026-11-30", true),
    ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2026-1-30", false),
    ("^#[0-9A-Fa-f]{6}$", "#4FC3F7", true),
    ("^#[0-9A-Fa-f]{6}$", "#4FC3F", false),
    ("^[1-5] of [1-5]$", "3 of 5", true),
    ("^[Hh][Tt][Tt][Pp][Ss]?://", "HTTPS://x", true),
    ("^[Hh][Tt][Tt][Pp][Ss]?://", "ftp://x", false),
    ("^([Dd][Ii][Ss][Mm][Ii][Ss][Ss]|[Cc][Uu][Ss][Tt][Oo][Mm])$", "Dismiss", true),
    ("^([Dd][Ii][Ss][Mm][Ii][Ss][Ss]|[Cc][Uu][Ss][Tt][Oo][Mm])$", "dismissed", false),
    ("^a*b+c?$", "bbb", true),
    ("^a*b+c?$", "aac", false),
    ("^(ab){2,}$", "ababab", true),
    ("^(ab){2,3}$", "abababab", false),
    ("^[^0-9]+$", "abc", true),
    ("^[^0-9]+$", "a1c", false),
    ("^\\d+\\.\\d+$", "1.25", true),
    ("^\\w+\\s\\w+$", "hello world", true),
    ("^\\S+$", "no space", false),
    ("^[a\\-z]$", "-", true),
    ("^(?:x|y)z$", "yz", true),
    ("^é+$", "ééé", true),
    ("^(a|ab)(c|bcd)(d*)$", "abcd", true),
    ("(a*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaab", true),
  ])
  func matches(_ pattern: String, _ text: String, _ expected: Bool) throws {
    #expect(try Pattern(pattern).matches(text) == expected)
  }

  @Test(arguments: ["(ab", "[ab", "a{2,1}", "*a", "\\", "a)"])
  func refusesWhatItCannotRead(_ pattern: String) {
    #expect(throws: Pattern.Invalid.self) { try Pattern(pattern) }
  }

  /// A schema's pattern is compiled on first use and kept: the same source gives the same verdicts,
  /// and one that cannot be read stays refused.
  @Test func compiledOnceAndKept() {
    let first = Pattern.compiled("^[1-5] of [1-5]$")
    #expect(first?.matches("3 of 5") == true)
    #expect(Pattern.compiled("^[1-5] of [1-5]$")?.matches("6 of 5") == false)
    #expect(Pattern.compiled("(ab") == nil)
    #expect(Pattern.compiled("(ab") == nil)
  }
}
