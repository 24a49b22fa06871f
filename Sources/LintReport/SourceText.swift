import JSON

/// The text of a JSON file as written, to say where a value in it is: the parser keeps no
/// positions, so this walks the (already parsed, hence well-formed) text along a JSON pointer.
///
/// Minified or pretty, CR LF or LF, with or without a byte order mark: the walk reads JSON's own
/// grammar (whitespace, strings with escapes, nesting) and no layout.
///
/// Positions cost no more than the length of one line's stretch of `LineIndex.stride` bytes, and
/// the members and elements of an object or array are found once (`ValueIndex`), so a file of
/// thousands of payloads, or one payload of thousands of findings, minified on one line or pretty,
/// is placed in time linear in its length.
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
    let index = ValueIndex(self)
    return index.elements(ofArrayAt: index.offset(of: pointer))
  }

  /// The byte offset where the deepest value along `pointer` starts, walking from the value at
  /// `start` (the document's by default). Many pointers into one text share a `ValueIndex`.
  public func offset(of pointer: JSONPointer, from start: Int? = nil) -> Int {
    ValueIndex(self).offset(of: pointer, from: start)
  }
}
