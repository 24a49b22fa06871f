/// Where each line of a text starts, and running counts of UTF-16 code units and Unicode scalars
/// every `stride` bytes, so a position is a binary search and a scan of at most `stride` bytes
/// (a minified file is one long line: its columns must not be counted from the line's start).
struct LineIndex: Sendable {
  static let stride = 512

  /// Offsets where lines start: the first after the byte order mark, then each after LF, CR LF or
  /// a lone CR.
  private var starts: [Int]
  /// UTF-16 code units and scalars before byte `k * stride` (the byte order mark not counted).
  private var units: [Int] = []
  private var scalars: [Int] = []
  private let origin: Int

  init(_ bytes: [UInt8]) {
    let origin = SourceText.bomLength(bytes)
    var starts = [origin]
    var units: [Int] = []
    var scalars: [Int] = []
    units.reserveCapacity(bytes.count / Self.stride + 2)
    scalars.reserveCapacity(bytes.count / Self.stride + 2)
    var unitCount = 0
    var scalarCount = 0
    // Block by block, each byte read once without a bounds check: a corpus file is megabytes.
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var blockStart = 0
      while blockStart < buffer.count {
        units.append(unitCount)
        scalars.append(scalarCount)
        let blockEnd = min(blockStart + Self.stride, buffer.count)
        var index = max(blockStart, origin)
        while index < blockEnd {
          // Eight ASCII bytes with no line break, most of a file, count eight each at once.
          if index + 8 <= blockEnd, Self.isPlainASCII(UnsafeRawPointer(base + index)) {
            unitCount += 8
            scalarCount += 8
            index += 8
            continue
          }
          let byte = buffer[index]
          if byte & 0xC0 != 0x80 {
            unitCount += byte >= 0xF0 ? 2 : 1
            scalarCount += 1
          }
          if byte == 0x0A || (byte == 0x0D && (index + 1 >= buffer.count || buffer[index + 1] != 0x0A)) {
            starts.append(index + 1)
          }
          index += 1
        }
        blockStart = blockEnd
      }
    }
    units.append(unitCount)
    scalars.append(scalarCount)
    (self.origin, self.starts, self.units, self.scalars) = (origin, starts, units, scalars)
  }

  /// Whether the eight bytes at `pointer` are ASCII with neither LF nor CR among them.
  private static func isPlainASCII(_ pointer: UnsafeRawPointer) -> Bool {
    let word = pointer.loadUnaligned(as: UInt64.self)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
    return word & highs == 0 && !hasZeroByte(word ^ (ones &* 0x0A)) && !hasZeroByte(word ^ (ones &* 0x0D))
  }

  /// A byte's share of a column: a scalar starts at each non-continuation byte, and four-byte
  /// sequences are outside the BMP, a surrogate pair in UTF-16.
  private static func weight(_ byte: UInt8) -> (units: Int, scalars: Int) {
    guard byte & 0xC0 != 0x80 else { return (0, 0) }
    return (byte >= 0xF0 ? 2 : 1, 1)
  }

  /// The counts before `offset`.
  private func counts(before offset: Int, in bytes: [UInt8]) -> (units: Int, scalars: Int) {
    let block = offset / Self.stride
    let (u, s) = Self.counts(from: max(block * Self.stride, origin), to: offset, in: bytes)
    return (units[block] + u, scalars[block] + s)
  }

  /// The counts of the bytes in `start..<end`.
  private static func counts(from start: Int, to end: Int, in bytes: [UInt8]) -> (units: Int, scalars: Int) {
    var (u, s) = (0, 0)
    var index = start
    while index < end {
      let (du, ds) = weight(bytes[index])
      u += du
      s += ds
      index += 1
    }
    return (u, s)
  }

  func position(of offset: Int, in bytes: [UInt8]) -> SourcePosition {
    guard offset >= origin else { return .start }
    var low = 0
    var high = starts.count - 1
    while low < high {  // the last line start at or before offset
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    // A short line is counted from its start; a long one (a minified file) from the blocks' counts.
    let column: (units: Int, scalars: Int)
    if offset - starts[low] <= Self.stride {
      column = Self.counts(from: starts[low], to: offset, in: bytes)
    } else {
      let (end, begin) = (counts(before: offset, in: bytes), counts(before: starts[low], in: bytes))
      column = (end.units - begin.units, end.scalars - begin.scalars)
    }
    return SourcePosition(line: low + 1, column: column.units + 1, codePointColumn: column.scalars + 1)
  }
}
