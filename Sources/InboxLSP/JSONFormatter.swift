import JSON
import LintReport

/// Lays a well-formed JSON value out again, one member or element a line, indented by `indent` a
/// level from the indentation of the line it starts on; `:` followed by one space, empty objects and
/// arrays as `{}` and `[]`. It re-indents and never rewrites: members keep their order, and every
/// byte of a string, number or literal is copied as written (an escape stays the escape it was,
/// `1.0` stays `1.0`). Text that does not parse is left alone.
enum JSONFormatter {
  /// The indentation of a level, from LSP's `FormattingOptions` (2 spaces unless it says otherwise).
  static func indent(_ options: JSONValue?) -> String {
    let size = Int(min(max(options?["tabSize"]?.intValue ?? 2, 0), 16))
    return options?["insertSpaces"]?.boolValue == false ? "\t" : String(repeating: " ", count: size)
  }

  /// The value in `span` formatted, nil when it is formatted already or does not parse.
  static func formatted(_ bytes: [UInt8], span: Range<Int>, indent: String) -> [UInt8]? {
    guard !span.isEmpty, (try? JSONValue.parse(bytes: bytes[span])) != nil else { return nil }
    let text = layout(
      bytes, span, indent: Array(indent.utf8), base: lineIndent(bytes, at: span.lowerBound), newline: newline(bytes))
    return text.elementsEqual(bytes[span]) ? nil : text
  }

  /// The document's value: from its first byte that is not space (or a byte-order mark) to its end.
  static func documentSpan(_ bytes: [UInt8]) -> Range<Int> {
    let start = JSONScanner.skipSpace(bytes, SourceText.bomLength(bytes))
    return start..<(start < bytes.count ? JSONScanner.valueEnd(bytes, at: start) : start)
  }

  /// What formatting the LSP range `selected` (bytes) formats: the innermost object or array holding
  /// it, else the document's value.
  static func span(holding selected: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
    guard let container = JSONContainers.innermost(holding: selected, in: bytes) else { return documentSpan(bytes) }
    return container.open..<(container.close + 1)
  }

  private static func layout(
    _ bytes: [UInt8], _ span: Range<Int>, indent: [UInt8], base: ArraySlice<UInt8>, newline: [UInt8]
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(span.count * 2)
    var depth = 0
    func breakLine() {
      out += newline
      out += base
      for _ in 0..<depth { out += indent }
    }
    var at = span.lowerBound
    while at < span.upperBound {
      let byte = bytes[at]
      switch byte {
      case UInt8(ascii: "\""):
        let end = JSONScanner.stringEnd(bytes, at)
        out += bytes[at..<end]
        at = end
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let next = JSONScanner.skipSpace(bytes, at + 1)
        if next < span.upperBound, bytes[next] == byte + 2 {  // `}` and `]` are 2 past `{` and `[`
          out += [byte, byte + 2]
          at = next + 1
          continue
        }
        out.append(byte)
        depth += 1
        breakLine()
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        breakLine()
        out.append(byte)
      case UInt8(ascii: ","):
        out.append(byte)
        breakLine()
      case UInt8(ascii: ":"): out += [byte, UInt8(ascii: " ")]
      case 0x20, 0x09, 0x0A, 0x0D: break
      default: out.append(byte)
      }
      at += 1
    }
    return out
  }

  /// The spaces and tabs that start the line holding `offset`.
  private static func lineIndent(_ bytes: [UInt8], at offset: Int) -> ArraySlice<UInt8> {
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
    var end = start
    while end < offset, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    return bytes[start..<end]
  }

  /// The document's own line ending (its first one), LF when it has none.
  private static func newline(_ bytes: [UInt8]) -> [UInt8] {
    guard let first = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return [0x0A] }
    return bytes[first] == 0x0D && first + 1 < bytes.count && bytes[first + 1] == 0x0A ? [0x0D, 0x0A] : [bytes[first]]
  }
}
