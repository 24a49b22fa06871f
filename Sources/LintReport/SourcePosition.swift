/// A place in a text file as editors and CI systems count it.
///
/// Both numbers are 1-based. `column` counts UTF-16 code units from the start of the line (SARIF's
/// default `columnKind`, and what editors built on JavaScript count); `codePointColumn` counts
/// Unicode scalars. A line ends at LF, CR LF or a lone CR; a UTF-8 byte order mark at the start
/// of the file is not part of the first line's columns.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var codePointColumn: Int

  public init(line: Int, column: Int, codePointColumn: Int? = nil) {
    self.line = line
    self.column = column
    self.codePointColumn = codePointColumn ?? column
  }

  /// The start of a file.
  public static let start = SourcePosition(line: 1, column: 1)

  /// `line:column`.
  public var description: String { "\(line):\(column)" }

  /// The position of the byte at `offset` in UTF-8 `bytes`.
  public init(offset: Int, in bytes: [UInt8]) {
    var line = 1
    var lineStart = SourceText.bomLength(bytes)
    let end = min(max(offset, lineStart), bytes.count)  // an offset inside the mark is the start
    var index = lineStart
    while index < end {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    var units = 0
    var scalars = 0
    for byte in bytes[lineStart..<end] where byte & 0xC0 != 0x80 {  // a scalar starts at each non-continuation byte
      scalars += 1
      units += byte >= 0xF0 ? 2 : 1  // four-byte sequences are outside the BMP: a surrogate pair
    }
    self.init(line: line, column: units + 1, codePointColumn: scalars + 1)
  }
}
