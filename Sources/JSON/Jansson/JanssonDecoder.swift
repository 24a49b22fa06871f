internal import CJansson

/// Reads JSON with jansson and converts the C tree at once, so no `json_t` outlives a call.
enum JanssonDecoder {
  /// jansson flags for untrusted input, set in this one place:
  /// any top-level value (so `5` is an invalid request, not a parse error), duplicate keys refused,
  /// `\u0000` allowed inside strings (read by length, never as C strings).
  static let flags = Int(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

  static func decode(_ bytes: UnsafeRawBufferPointer, options: JSONReadOptions) throws(JSONError) -> JSONValue {
    let root = try load(bytes)
    defer { json_decref(root) }
    return try convert(root, depth: 1, options: options)
  }

  /// The C tree of `bytes`; the caller releases it.
  static func load(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> UnsafeMutablePointer<json_t> {
    var error = json_error_t()
    let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    // json_loadb needs a non-null pointer even for zero bytes.
    let root: UnsafeMutablePointer<json_t>? =
      if let base { json_loadb(base, bytes.count, flags, &error) } else { json_loadb("", 0, flags, &error) }
    guard let root else { throw JSONError(jansson: &error) }
    return root
  }

  /// The Swift value of `node`; where `substituting` names a node, its value is taken as given.
  static func convert(
    _ node: UnsafeMutablePointer<json_t>, depth: Int, options: JSONReadOptions,
    substituting substitute: (node: UnsafeMutablePointer<json_t>, value: JSONValue)? = nil
  ) throws(JSONError) -> JSONValue {
    if let substitute, substitute.node == node { return substitute.value }
    switch cj_typeof(node) {
    case JSON_NULL: return .null
    case JSON_TRUE: return .bool(true)
    case JSON_FALSE: return .bool(false)
    case JSON_INTEGER: return .int(Int64(json_integer_value(node)))
    case JSON_REAL: return .double(json_real_value(node))
    case JSON_STRING: return .string(string(node))
    case JSON_ARRAY:
      guard depth < options.maxDepth || json_array_size(node) == 0 else { throw tooDeep(options) }
      let count = json_array_size(node)
      var items: [JSONValue] = []
      items.reserveCapacity(count)
      for offset in 0..<count {
        guard let item = json_array_get(node, offset) else { continue }
        items.append(try convert(item, depth: depth + 1, options: options, substituting: substitute))
      }
      return .array(items)
    case JSON_OBJECT:
      guard depth < options.maxDepth || json_object_size(node) == 0 else { throw tooDeep(options) }
      var members: [JSONObject.Member] = []
      members.reserveCapacity(json_object_size(node))
      var iterator = json_object_iter(node)
      while let current = iterator {
        guard let keyPointer = json_object_iter_key(current), let value = json_object_iter_value(current) else {
          break
        }
        let keyLength = json_object_iter_key_len(current)
        let key = keyPointer.withMemoryRebound(to: UInt8.self, capacity: keyLength) {
          String(decoding: UnsafeBufferPointer(start: $0, count: keyLength), as: UTF8.self)
        }
        members.append(
          JSONObject.Member(
            key: key, value: try convert(value, depth: depth + 1, options: options, substituting: substitute)))
        iterator = json_object_iter_next(node, current)
      }
      return .object(JSONObject(distinctMembers: members))
    default:
      throw JSONError(kind: .other, message: "unknown jansson node type")
    }
  }

  /// Strings are read by length, so an embedded `\u0000` is kept, not truncated.
  private static func string(_ node: UnsafeMutablePointer<json_t>) -> String {
    let length = json_string_length(node)
    guard let pointer = json_string_value(node), length > 0 else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  static func tooDeep(_ options: JSONReadOptions) -> JSONError {
    JSONError(kind: .tooDeep, message: "nesting deeper than \(options.maxDepth) levels")
  }
}

extension JSONError {
  /// Built in one place from jansson's error struct: the kind from its code, plus where it stopped.
  init(jansson error: inout json_error_t) {
    let kind: Kind =
      switch json_error_code(&error) {
      case json_error_invalid_utf8: .invalidUTF8
      case json_error_duplicate_key: .duplicateKey
      case json_error_null_byte_in_key: .nulInKey
      case json_error_numeric_overflow: .numericOverflow
      case json_error_stack_overflow: .tooDeep
      case json_error_out_of_memory, json_error_unknown: .other
      default: .syntax
      }
    let text = withUnsafeBytes(of: &error.text) { raw -> String in
      let bytes = raw.prefix(while: { $0 != 0 })
      return String(decoding: bytes, as: UTF8.self)
    }
    self.init(
      kind: kind, message: text, line: Int(error.line), column: Int(error.column), position: Int(error.position))
  }
}
