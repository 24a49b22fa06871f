import InboxCore
import JSON
import LintReport

/// The findings with one obvious fix, as edits of the offending value alone (the file's layout is
/// kept): an unknown `displayType` or button `action` becomes the nearest known word, and a
/// button `url` without a scheme gets `https://`.
enum QuickFix {
  struct Fix: Hashable {
    var title: String
    var start: Int
    var end: Int
    var newText: String
  }

  static let kinds = CardKind.allCases.map(\.rawValue)
  static let actions = ["dismiss", "markRead", "custom"]

  /// The fix for a diagnostic with rule `code` whose range starts at `start` (the offending value).
  static func fix(code: String, at start: Int, in bytes: [UInt8]) -> Fix? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
    let end = JSONScanner.stringEnd(bytes, start)
    guard end - 1 > start, bytes[end - 1] == UInt8(ascii: "\"") else { return nil }
    let value = String(decoding: bytes[(start + 1)..<(end - 1)], as: UTF8.self)
    let (from, to) = (start + 1, end - 1)
    switch code {
    case "unknownDisplayType":
      guard let word = nearest(value, in: kinds) else { return nil }
      return Fix(title: "Change displayType to \"\(word)\"", start: from, end: to, newText: word)
    case "unknownButtonAction":
      guard let word = nearest(value, in: actions) else { return nil }
      return Fix(title: "Change the action to \"\(word)\"", start: from, end: to, newText: word)
    case "invalidButtonURL":
      guard !value.isEmpty, !value.contains(":") else { return nil }
      return Fix(title: "Add https:// to the button's url", start: from, end: from, newText: "https://")
    default:
      return nil
    }
  }

  /// The word of `words` closest to `value` (ignoring case), when it is close enough to be meant.
  static func nearest(_ value: String, in words: [String]) -> String? {
    let typed = Array(value.lowercased())
    let scored = words.map { ($0, distance(typed, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, typed.count / 3) else { return nil }
    return best.0
  }

  /// Levenshtein distance.
  private static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
