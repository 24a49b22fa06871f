internal import CJansson

#if canImport(Glibc)
  import Glibc
#endif

/// A long list inside a reply (a sync's thousands of messages), read without ever building the tree
/// of the whole text: jansson parses each value on its own (`JSON_DISABLE_EOF_CHECK` tells where
/// it ended), and only the punctuation between values (`{ } [ ] : ,` and white space) is stepped
/// over here. The items of the list are not parsed here: each is left as a span of the text, found
/// by its brackets and strings alone (`ValueExtent`), and parsed by jansson, whole and strictly, once,
/// when it is read (`JSONItems`), so at most one item's tree exists at a time and no item is parsed
/// twice. A text whose list holds an item that is not JSON is refused when that item is read.
extension JanssonDecoder {
  /// The text of `bytes`, with the array at `path` (object keys from the top; none for a text that
  /// is an array) taken out of the value (an empty array stands for a top-level one) and returned
  /// as `JSONItems`; nil items, and the whole value, when no array is there.
  /// The text but the list's items is checked as `decode` checks it (each item is, when read), but
  /// for a raw NUL byte, refused anywhere: JSON
  /// has none outside a string's `\u0000`, and jansson lets one pass after a number without counting
  /// it in the length it reports, which would cut the spans wrong. `isCancelled` is asked between
  /// items.
  static func decode(
    _ bytes: [UInt8], options: JSONReadOptions, deferringItemsAt path: [String], isCancelled: @escaping () -> Bool
  ) throws(JSONError) -> (value: JSONValue, items: JSONItems?) {
    if let nul = firstNUL(in: bytes) {
      throw JSONError(kind: .syntax, message: "a NUL byte in the text", position: nul)
    }
    let walked = bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONError) in
        var walk = TextWalk(buffer, path: path, options: options, isCancelled: isCancelled)
        return try walk.top()
      }
    }
    guard let (value, spans) = try walked.get() else {
      return (try JSONValue.parse(bytes: bytes, options: options), nil)
    }
    guard let spans else { return (value, nil) }
    return (value, JSONItems(text: bytes, spans: spans, depth: path.count + 2, options: options))
  }

  /// Where the first NUL byte is, found by libc's `memchr`: a reply is tens of megabytes, and the
  /// scan comes before the first cancellation point, so it must not cost a generic loop's time.
  private static func firstNUL(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { buffer -> Int? in
      guard let base = buffer.baseAddress, let hit = memchr(base, 0, buffer.count) else { return nil }
      return base.distance(to: UnsafeRawPointer(hit))
    }
  }

  /// One value parsed by jansson alone, from the start of `bytes` (white space first allowed); the
  /// caller releases it. With the bytes it took.
  static func loadOne(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(JSONError) -> (
    node: UnsafeMutablePointer<json_t>, length: Int
  ) {
    var error = json_error_t()
    let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    let node: UnsafeMutablePointer<json_t>? =
      if let base { json_loadb(base + start, bytes.count - start, flags | Int(JSON_DISABLE_EOF_CHECK), &error) } else {
        nil
      }
    guard let node else {
      var failure = JSONError(jansson: &error)
      if failure.position >= 0 { failure.position += start }
      throw failure
    }
    return (node, Int(error.position))
  }
}

/// Steps through the objects on the way to the list, handing every value to jansson.
private struct TextWalk {
  let bytes: UnsafeRawBufferPointer
  let path: [String]
  let options: JSONReadOptions
  let isCancelled: () -> Bool
  var at = 0
  var spans: [Range<Int>]?

  /// Items checked between two questions to `isCancelled`.
  static let itemsPerCheck = 256

  init(_ bytes: UnsafeRawBufferPointer, path: [String], options: JSONReadOptions, isCancelled: @escaping () -> Bool) {
    self.bytes = bytes
    self.path = path
    self.options = options
    self.isCancelled = isCancelled
  }

  /// The value without the list, and the list's item spans; nil when the text is not an object
  /// on the way to a path, nor the array an empty path names (the caller parses it whole).
  mutating func top() throws(JSONError) -> (JSONValue, [Range<Int>]?)? {
    skipSpace()
    let value: JSONValue
    switch (peek(), path.isEmpty) {
    case (UInt8(ascii: "{"), false): value = try object(level: 0)
    case (UInt8(ascii: "["), true):
      spans = try list(depth: 1)
      value = .array([])
    default: return nil
    }
    skipSpace()
    guard at == bytes.count else { throw syntax("end of file expected") }
    return (value, spans)
  }

  private func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

  private mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
  }

  private func syntax(_ message: String) -> JSONError {
    JSONError(kind: .syntax, message: message, position: at)
  }

  /// A value parsed by jansson, converted at `depth`.
  private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
    let (node, length) = try JanssonDecoder.loadOne(bytes, at: at)
    defer { json_decref(node) }
    at += length
    return try JanssonDecoder.convert(node, depth: depth, options: options)
  }

  /// The object at `at`, on the way to the list at `path[level]`; its depth is `level + 1`.
  private mutating func object(level: Int) throws(JSONError) -> JSONValue {
    guard level + 1 < options.maxDepth else { throw JanssonDecoder.tooDeep(options) }
    at += 1  // {
    var members: [JSONObject.Member] = []
    var keys = Set<String>()
    skipSpace()
    if peek() == UInt8(ascii: "}") {
      at += 1
      return .object(JSONObject())
    }
    while true {
      skipSpace()
      guard peek() == UInt8(ascii: "\"") else { throw syntax("string or '}' expected") }
      guard case .string(let key) = try value(depth: level + 2) else { throw syntax("string expected") }
      guard !key.utf8.contains(0) else {
        throw JSONError(kind: .nulInKey, message: "NUL byte in object key not supported", position: at)
      }
      guard keys.insert(key).inserted else {
        throw JSONError(kind: .duplicateKey, message: "duplicate object key", position: at)
      }
      skipSpace()
      guard peek() == UInt8(ascii: ":") else { throw syntax("':' expected") }
      at += 1
      skipSpace()
      let onPath = level < path.count && key == path[level]
      if onPath, level == path.count - 1, peek() == UInt8(ascii: "[") {
        spans = try list(depth: level + 2)
      } else if onPath, level < path.count - 1, peek() == UInt8(ascii: "{") {
        members.append(JSONObject.Member(key: key, value: try object(level: level + 1)))
      } else {
        members.append(JSONObject.Member(key: key, value: try value(depth: level + 2)))
      }
      skipSpace()
      switch peek() {
      case UInt8(ascii: ","): at += 1
      case UInt8(ascii: "}"):
        at += 1
        return .object(JSONObject(distinctMembers: members))
      default: throw syntax("',' or '}' expected")
      }
    }
  }

  /// The spans of the items of the array at `at` (at `depth`), each found by `ValueExtent`.
  private mutating func list(depth: Int) throws(JSONError) -> [Range<Int>] {
    at += 1  // [
    var spans: [Range<Int>] = []
    skipSpace()
    if peek() == UInt8(ascii: "]") {
      at += 1
      return spans
    }
    guard depth < options.maxDepth else { throw JanssonDecoder.tooDeep(options) }
    while true {
      if spans.count % Self.itemsPerCheck == Self.itemsPerCheck - 1, isCancelled() {
        throw JSONError(kind: .cancelled, message: "the read was cancelled")
      }
      skipSpace()
      guard let end = ValueExtent.end(in: bytes, from: at) else { throw syntax("a value expected") }
      spans.append(at..<end)
      at = end
      skipSpace()
      switch peek() {
      case UInt8(ascii: ","): at += 1
      case UInt8(ascii: "]"):
        at += 1
        return spans
      default: throw syntax("',' or ']' expected")
      }
    }
  }
}
