internal import CJansson

#if canImport(Glibc)
  import Glibc
#endif

/// Writes JSON with jansson: builds a C tree with the reference-stealing `_new` calls, dumps it
/// compact, and releases the root once.
enum JanssonEncoder {
  /// Compact (no newline can appear in a frame) and any top-level value.
  private static let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY)

  /// Replies this size or smaller are dumped into a stack buffer and copied once.
  private static let stackBytes = 4096

  /// The compact encoding, with `terminator` appended when given (a frame's newline, without
  /// copying the body again).
  /// With `sortingKeys`, every object's members are written in the order of their keys' UTF-8
  /// bytes (jansson's `JSON_SORT_KEYS` compares them with `memcmp`, a shorter key first on a tie).
  static func encode(_ value: JSONValue, terminator: UInt8? = nil, sortingKeys: Bool = false) -> [UInt8] {
    guard let root = build(value) else { return Array("null".utf8) }
    defer { json_decref(root) }
    return encode(root, terminator: terminator, sortingKeys: sortingKeys)
  }

  /// The compact encoding of a jansson tree (one built, or the parser's), as `encode` writes it.
  static func encode(_ root: UnsafeMutablePointer<json_t>, terminator: UInt8? = nil, sortingKeys: Bool = false)
    -> [UInt8]
  {
    let flags = sortingKeys ? flags | Int(JSON_SORT_KEYS) : flags
    let extra = terminator == nil ? 0 : 1
    let small: [UInt8]? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: stackBytes) { buffer in
      let size = json_dumpb(root, buffer.baseAddress, stackBytes, flags)
      guard size > 0, size <= stackBytes else { return nil }
      return [UInt8](unsafeUninitializedCapacity: size + extra) { output, count in
        UnsafeMutableRawBufferPointer(output).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<size]))
        if let terminator { output[size] = terminator }
        count = size + extra
      }
    }
    if let small { return small }
    // Larger: one dump into jansson's own growing buffer, copied once. (Asking json_dumpb for the
    // size first dumps twice, and dumping is most of what a page of cards costs.)
    guard let text = json_dumps(root, flags) else { return Array("null".utf8) }
    defer { release(text) }
    let size = strlen(text)
    return [UInt8](unsafeUninitializedCapacity: size + extra) { output, count in
      UnsafeMutableRawBufferPointer(output).copyMemory(from: UnsafeRawBufferPointer(start: text, count: size))
      if let terminator { output[size] = terminator }
      count = size + extra
    }
  }

  /// Frees what jansson allocated, with jansson's own free function (the one set by
  /// `json_set_alloc_funcs`, not necessarily libc's).
  private static func release(_ block: UnsafeMutablePointer<CChar>) {
    var free: json_free_t?
    json_get_alloc_funcs(nil, &free)
    free?(block)
  }

  /// The compact text of a jansson node (the parser's, read without converting it).
  static func dump(_ node: UnsafeMutablePointer<json_t>) -> String {
    dump(node, upTo: Int.max).text ?? "null"
  }

  /// `dump(node)` when its text is at most `limit` bytes, else nil (a longer one is measured, not
  /// written out), with the text's length.
  static func dump(_ node: UnsafeMutablePointer<json_t>, upTo limit: Int) -> (text: String?, size: Int) {
    // One pass into a stack buffer for the usual size; asking the size first would dump twice.
    let small: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: stackBytes) { buffer in
      let size = json_dumpb(node, buffer.baseAddress, stackBytes, flags)
      guard size > 0, size <= stackBytes else { return nil }
      return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<size]).withMemoryRebound(
        to: UInt8.self
      ) { String(decoding: $0, as: UTF8.self) }
    }
    if let small { return small.utf8.count <= limit ? (small, small.utf8.count) : (nil, small.utf8.count) }
    let size = json_dumpb(node, nil, 0, flags)
    guard size > 0 else { return ("null", 4) }
    guard size <= limit else { return (nil, size) }
    let text = String(unsafeUninitializedCapacity: size) { output in
      output.withMemoryRebound(to: CChar.self) { json_dumpb(node, $0.baseAddress, size, flags) == size ? size : 0 }
    }
    return (text, size)
  }

  /// The length of a node's compact text, counted without writing it.
  static func size(_ node: UnsafeMutablePointer<json_t>?) -> Int {
    guard let node else { return 4 }  // "null"
    return json_dumpb(node, nil, 0, flags)
  }

  /// A new reference for `value`, or nil only when jansson cannot allocate.
  static func build(_ value: JSONValue) -> UnsafeMutablePointer<json_t>? {
    switch value {
    case .prebuilt(let built): return json_incref(built.node)
    case .null: return json_null()
    case .bool(let flag): return cj_boolean(flag ? 1 : 0)
    case .int(let number): return json_integer(json_int_t(number))
    case .double(let number):
      // JSON has no NaN or infinity; jansson refuses them too. They become null.
      return number.isFinite ? json_real(number) : json_null()
    case .string(let text): return makeString(text)
    case .array(let items):
      guard let array = json_array() else { return nil }
      for item in items {
        // _new steals the reference even when it fails, so nothing is released twice.
        json_array_append_new(array, build(item))
      }
      return array
    case .object(let object):
      guard let node = json_object() else { return nil }
      for member in object {
        var key = member.key
        key.withUTF8 { utf8 in
          utf8.withMemoryRebound(to: CChar.self) { chars in
            _ = json_object_setn_new_nocheck(node, chars.baseAddress, chars.count, build(member.value))
          }
        }
      }
      return node
    }
  }

  private static func makeString(_ text: String) -> UnsafeMutablePointer<json_t>? {
    var text = text
    return text.withUTF8 { utf8 in
      utf8.withMemoryRebound(to: CChar.self) { chars in
        // Swift strings are valid UTF-8 already; _nocheck skips a second validation.
        guard let base = chars.baseAddress else { return json_stringn_nocheck("", 0) }
        return json_stringn_nocheck(base, chars.count)
      }
    }
  }
}
