import JSON

/// Where the values of a (parsed, hence well-formed) JSON text start, by JSON pointer: the first
/// time a pointer goes through an object or an array, all its members or elements are found in one
/// walk and kept, so the next pointer through it costs a lookup. Placing a payload's thousandth
/// finding (a language key, a button) costs what placing its first did.
///
/// One index serves one payload's findings, or a document's, on one thread: it is not shared.
public final class ValueIndex {
  public let text: SourceText
  /// Each object's members walked so far, by the offset of its `{`: the first of a duplicated name
  /// wins, as the walk from the start found it.
  private var members: [Int: [String: Int]] = [:]
  /// Each array's elements walked so far, by the offset of its `[`.
  private var elements: [Int: [Int]] = [:]
  /// Where each value asked about ends: many findings can sit at one large value (a payload).
  private var ends: [Int: Int] = [:]

  public init(_ text: SourceText) { self.text = text }

  /// The byte offset where the deepest value along `pointer` starts, walking from the value at
  /// `start` (the document's by default). A pointer that goes past what the text holds (into a
  /// string that itself encodes JSON, say) stops at the deepest value it reaches.
  public func offset(of pointer: JSONPointer, from start: Int? = nil) -> Int {
    var at = JSONScanner.skipSpace(text.bytes, start ?? SourceText.bomLength(text.bytes))
    for token in pointer.tokens {
      guard let next = child(token, ofValueAt: at) else { break }
      at = next
    }
    return at
  }

  /// Where `pointer` leads from the value at byte `offset`, as a position in the file.
  public func position(of pointer: JSONPointer, inValueAt offset: Int) -> SourcePosition {
    text.position(atOffset: self.offset(of: pointer, from: offset))
  }

  /// The byte offset just past the value starting at `start`.
  public func end(ofValueAt start: Int) -> Int {
    if let known = ends[start] { return known }
    let end = JSONScanner.valueEnd(text.bytes, at: start)
    ends[start] = end
    return end
  }

  /// Where each element of the array starting at `start` starts ([] when no array starts there).
  public func elements(ofArrayAt start: Int) -> [Int] {
    if let known = elements[start] { return known }
    let bytes = text.bytes
    guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return [] }
    var found: [Int] = []
    walk(from: start) { at in
      found.append(at)
      return at
    }
    elements[start] = found
    return found
  }

  /// The members of the object starting at `start`: each name with the offset of its value.
  private func members(ofObjectAt start: Int) -> [String: Int] {
    if let known = members[start] { return known }
    let bytes = text.bytes
    var found: [String: Int] = [:]
    walk(from: start) { at in
      let (key, afterKey) = JSONScanner.string(bytes, at)
      let value = JSONScanner.skipSpace(bytes, JSONScanner.skipSpace(bytes, afterKey) + 1)  // past the colon
      if found[key] == nil { found[key] = value }
      return value
    }
    members[start] = found
    return found
  }

  private func child(_ token: String, ofValueAt start: Int) -> Int? {
    guard start < text.bytes.count else { return nil }
    switch text.bytes[start] {
    case UInt8(ascii: "{"): return members(ofObjectAt: start)[token]
    case UInt8(ascii: "["):
      guard let index = JSONPointer.index(token) else { return nil }
      let found = elements(ofArrayAt: start)
      return found.indices.contains(index) ? found[index] : nil
    default: return nil
    }
  }

  /// Visits each item of the object or array whose bracket is at `start`: `visit` is given where
  /// the item starts (an element, or a member's name) and returns where its value starts.
  private func walk(from start: Int, _ visit: (Int) -> Int) {
    let bytes = text.bytes
    let close = bytes[start] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
    var at = JSONScanner.skipSpace(bytes, start + 1)
    while at < bytes.count, bytes[at] != close {
      at = JSONScanner.skipSpace(bytes, JSONScanner.valueEnd(bytes, at: visit(at)))
      guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { return }
      at = JSONScanner.skipSpace(bytes, at + 1)
    }
  }

}
