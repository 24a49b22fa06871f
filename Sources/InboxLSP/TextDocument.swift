/// One open file as the server holds it: UTF-8 bytes, the start of each line, and conversions
/// between byte offsets and LSP positions in the negotiated encoding.
public struct TextDocument: Sendable {
  public let uri: String
  public private(set) var version: Int
  public private(set) var bytes: [UInt8]
  private var lineStarts: [Int] = [0]

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
    var at = lineStarts[line]
    var units = 0
    while at < end, units < character {
      let width = PositionEncoding.utf8.units(lead: bytes[at])
      units += encoding.units(lead: bytes[at])
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
    var units = 0
    var at = lineStarts[low]
    while at < offset {
      units += encoding.units(lead: bytes[at])
      at += PositionEncoding.utf8.units(lead: bytes[at])
    }
    return (low, units)
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
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        lineStarts.append(index + 1)
      }
      index += 1
    }
  }
}
