import JSON

/// JSON's grammar read byte by byte, without a parser: where whitespace, a string or a whole value
/// ends. Lint walks parsed, well-formed text with it; the language server, text still being typed,
/// so an unfinished value ends at the text's end and an unclosed string at its line's end.
public enum JSONScanner {
  /// The offset of the first byte at or after `start` that is not JSON whitespace.
  public static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
    var at = start
    while at < bytes.count, isSpace(bytes[at]) { at += 1 }
    return at
  }

  /// The offset just past the value starting at `start` (the whole of a string, number, literal,
  /// object or array).
  public static func valueEnd(_ bytes: [UInt8], at start: Int) -> Int {
    guard start < bytes.count else { return bytes.count }
    var at = start
    switch bytes[at] {
    case UInt8(ascii: "\""):
      return stringEnd(bytes, at)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while at < bytes.count {
        switch bytes[at] {
        case UInt8(ascii: "\""):
          at = stringEnd(bytes, at)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return at + 1 }
        default: break
        }
        at += 1
      }
      return at
    default:  // a number or a literal: up to the next delimiter
      while at < bytes.count, !isDelimiter(bytes[at]) { at += 1 }
      return max(at, start + 1)
    }
  }

  /// The offset just past the string whose opening quote is at `start`.
  public static func stringEnd(_ bytes: [UInt8], _ start: Int) -> Int {
    var at = start + 1
    while at < bytes.count {
      if bytes[at] == UInt8(ascii: "\\") {
        at += 2
        continue
      }
      if bytes[at] == UInt8(ascii: "\"") { return at + 1 }
      if bytes[at] == 0x0A { return at }  // an unclosed string stops at its line's end
      at += 1
    }
    return bytes.count
  }

  /// The string whose opening quote is at `start`, decoded, and the offset past its closing quote.
  public static func string(_ bytes: [UInt8], _ start: Int) -> (value: String, end: Int) {
    let end = stringEnd(bytes, start)
    let body = bytes[min(start + 1, end)..<max(start + 1, end - 1)]
    // Most keys hold no escape and are read as they are; the parser decodes the others exactly.
    guard body.contains(UInt8(ascii: "\\")) else { return (String(decoding: body, as: UTF8.self), end) }
    let value = (try? JSONValue.parse(bytes: bytes[start..<end]))?.stringValue ?? ""
    return (value, end)
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
      || byte == UInt8(ascii: ":")
  }
}
