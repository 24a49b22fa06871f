/// One open file as the server holds it: UTF-8 bytes, the start of each line, and conversions
/// between byte offsets and LSP positions in the negotiated encoding. Running counts of UTF-16 and
/// UTF-32 units every `stride` bytes make a conversion a binary search and a scan of at most
/// `stride` bytes: a minified document is one long line, and its thousands of diagnostics must not
/// each be counted from the line's start.
public struct TextDocument: Sendable {
  public let uri: String
  public private(set) var version: Int
  public private(set) var bytes: [UInt8]
  private var lineStarts: [Int] = [0]
  static let stride = 512
  /// UTF-16 code units and scalars before byte `k * stride`.
  private var utf16Before: [Int] = []
  private var utf32Before: [Int] = []

  public init(uri: String, version: Int, text: String) {
    self.uri = uri
    self.version = version
    bytes = Array(text.utf8)
    indexLines()
  }

  public var text: String { String(decoding: bytes, as: UTF8.self) }
  public var lineCount: Int { lineStarts.count }

  /// An LSP position (0-based line and character) as a byte offset; past a line's end is its end,
  /// past the last line is the end of the text (as LSP asks).
  public func offset(line: Int, character: Int, encoding: PositionEncoding) -> Int {
    guard line >= 0 else { return 0 }
    guard line < lineStarts.count else { return bytes.count }
    let end = lineEnd(line)
    let start = lineStarts[line]
    // The last stride mark in the line still short of `character`, then the scan from there.
    var (low, high) = (start / Self.stride + 1, (end - 1) / Self.stride)
    var mark = start
    while low <= high {
      let middle = (low + high) / 2
      if units(before: middle * Self.stride, encoding) - units(before: start, encoding) < character {
        mark = middle * Self.stride
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    var counted = units(before: mark, encoding) - units(before: start, encoding)
    var at = mark
    while at < end, bytes[at] & 0xC0 == 0x80 {  // a mark inside a character: on to its end
      counted += Self.weight(of: bytes[at], encoding)
      at += 1
    }
    while at < end, counted < character {
      let width = PositionEncoding.utf8.units(lead: bytes[at])
      counted += encoding.units(lead: bytes[at])
      at = min(at + width, end)
    }
    return at
  }

  /// A byte offset as an LSP position.
  public func position(ofOffset offset: Int, encoding: PositionEncoding) -> (line: Int, character: Int) {
    let offset = min(max(offset, 0), bytes.count)
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low, units(before: offset, encoding) - units(before: lineStarts[low], encoding))
  }

  /// The units of the characters that start before `offset`.
  private func units(before offset: Int, _ encoding: PositionEncoding) -> Int {
    guard encoding != .utf8 else { return offset }
    let block = offset / Self.stride
    var units = encoding == .utf16 ? utf16Before[block] : utf32Before[block]
    for byte in bytes[(block * Self.stride)..<offset] { units += Self.weight(of: byte, encoding) }
    return units
  }

  /// A byte's share of the units: UTF-8 counts each byte; UTF-16 and UTF-32 count a character's
  /// units at its first byte.
  private static func weight(of byte: UInt8, _ encoding: PositionEncoding) -> Int {
    encoding == .utf8 ? 1 : byte & 0xC0 == 0x80 ? 0 : encoding.units(lead: byte)
  }

  /// The offset of a 1-based line and UTF-16 column, as `lint` reports them.
  public func offset(lintLine line: Int, column: Int) -> Int {
    offset(line: line - 1, character: column - 1, encoding: .utf16)
  }

  /// Replaces the bytes between two offsets (a `didChange` range) and moves to `version`.
  public mutating func replace(from start: Int, to end: Int, with text: String, version: Int) {
    let start = min(max(start, 0), bytes.count)
    let end = min(max(end, start), bytes.count)
    bytes.replaceSubrange(start..<end, with: Array(text.utf8))
    self.version = version
    indexLines()
  }

  /// Replaces the whole text (a `didChange` without a range).
  public mutating func replaceAll(with text: String, version: Int) {
    replace(from: 0, to: bytes.count, with: text, version: version)
  }

  private func lineEnd(_ line: Int) -> Int {
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > lineStarts[line], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    return end
  }

  /// Lines end at LF, CR LF or a lone CR, as LSP says.
  private mutating func indexLines() {
    lineStarts = [0]
    (utf16Before, utf32Before) = ([], [])
    var (utf16, utf32) = (0, 0)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if index % Self.stride == 0 {
        utf16Before.append(utf16)
        utf32Before.append(utf32)
      }
      if byte & 0xC0 != 0x80 {
        utf16 += byte >= 0xF0 ? 2 : 1
        utf32 += 1
      }
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        lineStarts.append(index + 1)
      }
      index += 1
    }
    utf16Before.append(utf16)
    utf32Before.append(utf32)
  }
}
