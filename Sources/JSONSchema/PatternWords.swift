/// A `pattern` said in words a payload's author reads, for the patterns schemas write in place of
/// an `enum` that ignores case (`^([Bb][Aa][Nn][Nn][Ee][Rr]|[Vv][Ii][Dd][Ee][Oo])$`) or of a
/// prefix (`^[Hh][Tt][Tt][Pp][Ss]?://`): "must be one of banner or video (any case)". A pattern
/// of any other form has no words (nil): it is quoted as written.
///
/// A pattern that ignores case does not say how a word is spelled: where the schema's
/// `description` writes the word (`markRead`), that spelling is used, else lower case.
enum PatternWords {
  static func describe(_ source: String, description: String? = nil) -> String? {
    var text = Substring(source)
    guard text.popFirst() == "^" else { return nil }
    let whole = text.last == "$"
    if whole { text = text.dropLast() }
    if text.first == "(" && text.last == ")" { text = text.dropFirst().dropLast() }
    var texts: [String] = []
    var anyCase: Bool?
    for alternative in text.split(separator: "|", omittingEmptySubsequences: false) {
      guard let read = variants(of: alternative), anyCase == nil || anyCase == read.anyCase else { return nil }
      anyCase = read.anyCase
      texts += read.texts
    }
    guard !texts.isEmpty, texts.count <= 16 else { return nil }
    if anyCase == true, let description { texts = texts.map { spelling(of: $0, in: description) } }
    let listed = listing(texts) + (anyCase == true ? " (any case)" : "")
    if whole { return texts.count == 1 ? "must be \(listed)" : "must be one of \(listed)" }
    return "must start with \(listed)"
  }

  /// The texts one alternative matches, when it is made of letters in either case (`[Bb]`) or
  /// literal characters, each optionally optional (`?`); `anyCase` when its letters are all in pairs.
  private static func variants(of alternative: Substring) -> (texts: [String], anyCase: Bool)? {
    var texts = [""]
    var paired = 0
    var single = 0
    var rest = alternative
    while let unit = rest.first {
      var piece: String
      if unit == "[" {
        let pair = Array(rest.prefix(4))
        guard pair.count == 4, pair[3] == "]", pair[1].isLetter, pair[1] != pair[2],
          pair[1].lowercased() == pair[2].lowercased()
        else { return nil }
        piece = pair[1].lowercased()
        paired += 1
        rest = rest.dropFirst(4)
      } else {
        guard !"\\.^$|?*+()[]{}".contains(unit) else { return nil }
        piece = String(unit)
        if unit.isLetter { single += 1 }
        rest = rest.dropFirst()
      }
      if rest.first == "?" {
        rest = rest.dropFirst()
        texts += texts.map { $0 }
        let half = texts.count / 2
        texts = texts.indices.map { $0 < half ? texts[$0] : texts[$0] + piece }
      } else {
        texts = texts.map { $0 + piece }
      }
      guard texts.count <= 16 else { return nil }
    }
    guard paired == 0 || single == 0 else { return nil }
    return (texts, paired > 0)
  }

  /// `word` as `description` writes it, in any case, as a word of its own; else as it is.
  private static func spelling(of word: String, in description: String) -> String {
    let isWordCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "_" }
    let words = description.split(whereSeparator: { !isWordCharacter($0) })
    return words.first { $0.lowercased() == word }.map(String.init) ?? word
  }

  /// `a`, `a or b`, `a, b or c`.
  private static func listing(_ texts: [String]) -> String {
    guard let last = texts.last, texts.count > 1 else { return texts.first ?? "" }
    return texts.dropLast().joined(separator: ", ") + " or " + last
  }
}
