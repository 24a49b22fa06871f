/// Escaping for everything the preview copies out of a payload, so a title such as
/// `<script>alert(1)</script>` or `"><img src=x onerror=alert(1)>` is shown as text and never parsed.
public enum HTML {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe both as element
  /// content and inside a double-quoted attribute value.
  public static func escape(_ text: String) -> String {
    guard text.utf8.contains(where: needsEscape) else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// ` name="value"`, the value escaped; nothing when `value` is nil.
  static func attribute(_ name: String, _ value: String?) -> String {
    guard let value else { return "" }
    return " \(name)=\"\(escape(value))\""
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
      || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
  }
}
