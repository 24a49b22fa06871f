import JSON

/// The text of a JSON file as written, to say where a value in it is: the parser keeps no
/// positions, so this walks the (already parsed, hence well-formed) text along a JSON pointer.
///
/// Minified or pretty, CR LF or LF, with or without a byte order mark: the walk reads JSON's own
/// grammar (whitespace, strings with escapes, nesting) and no layout.
///
/// Positions cost no more than the length of one line's stretch of `LineIndex.stride` bytes, and
/// the elements of a long array are found once (`elementOffsets`), so a file of thousands of
/// payloads, minified on one line or pretty, is placed in time linear in its length.
public struct SourceText: Sendable {
  public let bytes: [UInt8]
  private let lines: LineIndex

  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    self.lines = LineIndex(bytes)
  }

  /// The length of a UTF-8 byte order mark at the start of `bytes` (0 or 3).
  public static func bomLength(_ bytes: [UInt8]) -> Int {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  /// The text without its byte order mark, as the JSON parser wants it.
  public var json: ArraySlice<UInt8> { bytes[Self.bomLength(bytes)...] }

  /// Where the value `pointer` names starts. A pointer that goes past what the text holds (into a
  /// string that itself encodes JSON, say) stops at the deepest value it reaches.
  public func position(of pointer: JSONPointer) -> SourcePosition {
    position(atOffset: offset(of: pointer))
  }

  /// The position of the byte at `offset`: the same as `SourcePosition(offset:in:)`, without
  /// reading the text from its start.
  public func position(atOffset offset: Int) -> SourcePosition {
    lines.position(of: min(max(offset, 0), bytes.count), in: bytes)
  }

  /// Where `pointer` leads from the value at byte `offset` (one line of a JSON Lines file, say:
  /// the file's positions, not the line's).
  public func position(of pointer: JSONPointer, inValueAt offset: Int) -> SourcePosition {
    position(atOffset: self.offset(of: pointer, from: offset))
  }

  /// Where each element of the array at `pointer` starts, found in one walk ([] when the value
  /// there is not an array).
  public func elementOffsets(of pointer: JSONPointer) -> [Int] {
    let start = offset(of: pointer)
    guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return [] }
    var offsets: [Int] = []
    var at = skipSpace(start + 1)
    while at < bytes.count, bytes[at] != UInt8(ascii: "]") {
      offsets.append(at)
      at = skipSpace(skipValue(at))
      guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { break }
      at = skipSpace(at + 1)
    }
    return offsets
  }

  /// The byte offset where the deepest value along `pointer` starts, walking from the value at
  /// `start` (the document's by default).
  public func offset(of pointer: JSONPointer, from start: Int? = nil) -> Int {
    var at = skipSpace(start ?? Self.bomLength(bytes))
    for token in pointer.tokens {
      guard let next = child(token, ofValueAt: at) else { break }
      at = next
    }
    return at
  }

  // MARK: - Walking

  private func child(_ token: String, ofValueAt start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "{"):
      var at = skipSpace(start + 1)
      while at < bytes.count, bytes[at] == UInt8(ascii: "\"") {
        let (key, afterKey) = readString(at)
        let value = skipSpace(skipSpace(afterKey) + 1)  // past the colon
        if key == token { return value }
        at = skipSpace(skipValue(value))
        guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { return nil }
        at = skipSpace(at + 1)
      }
      return nil
    case UInt8(ascii: "["):
      guard let wanted = JSONPointer.index(token) else { return nil }
      var at = skipSpace(start + 1)
      var index = 0
      while at < bytes.count, bytes[at] != UInt8(ascii: "]") {
        if index == wanted { return at }
        at = skipSpace(skipValue(at))
        guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { return nil }
        at = skipSpace(at + 1)
        index += 1
      }
      return nil
    default:
      return nil
    }
  }

  private func skipSpace(_ start: Int) -> Int {
    var at = start
    while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    return at
  }

  /// The offset just past the value starting at `start`.
  private func skipValue(_ start: Int) -> Int {
    guard start < bytes.count else { return start }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return stringEnd(start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var at = start
      while at < bytes.count {
        switch bytes[at] {
        case UInt8(ascii: "\""):
          at = stringEnd(at)
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
      var at = start
      while at < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D].contains(bytes[at]) { at += 1 }
      return at
    }
  }

  /// The offset past the closing quote of the string starting at the quote at `start`.
  private func stringEnd(_ start: Int) -> Int {
    var at = start + 1
    while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
      if bytes[at] == UInt8(ascii: "\\") { at += 2 } else { at += 1 }
    }
    return at + 1
  }

  /// The string starting at the quote at `start`, decoded, and the offset past its closing quote.
  private func readString(_ start: Int) -> (value: String, end: Int) {
    let end = stringEnd(start)
    // The parser decodes escapes exactly; the walk only needs the key it names.
    let value = (try? JSONValue.parse(bytes: bytes[start..<min(end, bytes.count)]))?.stringValue ?? ""
    return (value, end)
  }
}
