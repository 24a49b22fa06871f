import JSON

/// Payload text inside Markdown shown to a person: every character Markdown or HTML gives a
/// meaning is escaped, so a title such as `[x](javascript:...)` or `<img onerror=...>` shows as
/// the text it is and is never a link, an image or markup. Control characters are shown escaped.
enum Markdown {
  static func text(_ value: String) -> String {
    var out = ""
    for scalar in value.escapingControlCharacters.unicodeScalars {
      switch scalar {
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "#", "+", "-", ".", "!", "|", "~", ":", "\"", "'":
        out += "\\" + String(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
