/// An LSP header block (`Content-Length: N` and other `name: value` lines, then a blank line), read
/// from the reader's buffer.
enum HeaderBlock {
  enum Parse {
    case needMore
    case bad(String, end: Int)
    case header(length: Int, bodyStart: Int)
  }

  /// Reads header lines up to the blank line. Lenient: any order, any case, `\r\n` or bare `\n`,
  /// unknown fields (such as `Content-Type`) skipped. Strict where leniency would lose a message
  /// silently: a line that is not `name: value` with a token name (a JSON text sent without a header)
  /// is refused at once, and so are two `Content-Length` headers that disagree.
  static func parse(_ buffer: [UInt8], from start: Int) -> Parse {
    var lineStart = start
    var length: Int?
    var problem: String?
    while true {
      guard let newline = buffer[lineStart...].firstIndex(of: 0x0A) else { return .needMore }
      var lineEnd = newline
      if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      let line = buffer[lineStart..<lineEnd]
      lineStart = newline + 1
      if line.isEmpty {
        if let problem { return .bad(problem, end: lineStart) }
        guard let length else { return .bad("missing Content-Length header", end: lineStart) }
        return .header(length: length, bodyStart: lineStart)
      }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[line.startIndex..<colon].allSatisfy(isTokenByte)
      else {
        return .bad(notAHeader(line), end: lineStart)
      }
      let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
      guard name.lowercased() == "content-length" else { continue }
      let value = line[(colon + 1)...].drop(while: isBlank).reversed().drop(while: isBlank).reversed()
      if let parsed = decimal(value) {
        if let length, length != parsed {
          problem = problem ?? "two Content-Length headers that disagree (\(length) and \(parsed))"
        }
        length = parsed
      } else {
        problem = problem ?? "Content-Length is not a decimal number"
      }
    }
  }

  /// A byte of an HTTP header name (RFC 9110 `tchar`).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  static func notAHeader(_ line: ArraySlice<UInt8>) -> String {
    let first = line.first { !isBlank($0) }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      return "a JSON text without a Content-Length header (the stream is in Content-Length framing)"
    }
    return "not a header line (expected name: value)"
  }

  /// Strict ASCII digits, at most 15 of them (no sign, no overflow).
  static func decimal<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
    guard !digits.isEmpty, digits.count <= 15 else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= 0x30, digit <= 0x39 else { return nil }
      value = value * 10 + Int(digit - 0x30)
    }
    return value
  }

  /// JSON's white space, which may also stand between frames.
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
