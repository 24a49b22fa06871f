import JSON

/// Payload text inside Markdown shown to a person, as a code span: what is in a code span is shown
/// as written by every editor, those that draw Markdown and those that show its source (Neovim,
/// Eglot without markdown-mode), so no backslash escape is ever seen, and a title such as
/// `[x](javascript:...)` or `<img onerror=...>` is never a link, an image or markup. Control
/// characters are shown escaped, so a line break cannot end the span.
enum Markdown {
  static func code(_ value: String) -> String {
    let text = value.escapingControlCharacters
    guard !text.isEmpty else { return "` `" }  // an empty span is no span; one of a space alone is kept
    // The fence: one backtick more than the longest run inside, so no run closes it.
    var longest = 0
    var run = 0
    for character in text {
      run = character == "`" ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: longest + 1)
    // A span starting or ending with a backtick needs a space there; spaces on both sides are
    // stripped once, so one added on each side keeps the text's own.
    let padded =
      text.first == "`" || text.last == "`" || (text.first == " " && text.last == " " && text.contains { $0 != " " })
    return padded ? "\(fence) \(text) \(fence)" : "\(fence)\(text)\(fence)"
  }
}
