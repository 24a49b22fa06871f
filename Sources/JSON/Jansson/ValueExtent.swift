/// Where one JSON value in a text ends, told by its brackets and strings alone, without parsing
/// it: a long list's items are found this way and parsed only when read (`JSONItems`). For a valid
/// value the end is exact; for an invalid one it is only somewhere, and the strict parse of the span
/// refuses it (a span must be read whole).
enum ValueExtent {
  /// The end of the value that starts at `start` (no white space before it); nil when the text
  /// ends inside it or no value starts there.
  static func end(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var at = start
    var depth = 0
    while at < bytes.count {
      switch bytes[at] {
      case quote:
        at += 1
        while at < bytes.count && bytes[at] != quote { at += bytes[at] == backslash ? 2 : 1 }
        guard at < bytes.count else { return nil }
        at += 1
        if depth == 0 { return at }
      case openBrace, openBracket:
        depth += 1
        at += 1
      case closeBrace, closeBracket:
        guard depth > 0 else { return at > start ? at : nil }
        depth -= 1
        at += 1
        if depth == 0 { return at }
      case comma, space, tab, newline, carriageReturn, colon:
        guard depth > 0 else { return at > start ? at : nil }
        at += 1
      default: at += 1
      }
    }
    return depth == 0 && at > start ? at : nil
  }

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let openBrace = UInt8(ascii: "{")
  private static let closeBrace = UInt8(ascii: "}")
  private static let openBracket = UInt8(ascii: "[")
  private static let closeBracket = UInt8(ascii: "]")
  private static let comma = UInt8(ascii: ",")
  private static let colon = UInt8(ascii: ":")
  private static let space = UInt8(ascii: " ")
  private static let tab = UInt8(ascii: "\t")
  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")
}
