// The public face of the parser and the writer; both are jansson (see Jansson/).

/// Limits applied when reading untrusted JSON.
public struct JSONReadOptions: Sendable, Hashable {
  /// Deepest nesting of arrays and objects accepted; the top-level value is depth 1.
  public var maxDepth: Int

  /// The default: 64 levels, far more than any inbox payload, far below the C parser's own 2048.
  public static let `default` = JSONReadOptions(maxDepth: 64)

  public init(maxDepth: Int) { self.maxDepth = maxDepth }
}

extension JSONValue {
  /// Parses one JSON text (any value at the top level) from UTF-8 bytes.
  public static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONReadOptions = .default) throws(JSONError)
    -> JSONValue
  {
    try JanssonDecoder.decode(bytes, options: options)
  }

  /// Parses one JSON text from a byte array or slice.
  public static func parse<Bytes: Collection<UInt8>>(bytes: Bytes, options: JSONReadOptions = .default)
    throws(JSONError) -> JSONValue
  {
    let attempt = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONError) in try JanssonDecoder.decode(UnsafeRawBufferPointer(buffer), options: options) }
    }
    if let attempt { return try attempt.get() }
    return try parse(bytes: Array(bytes), options: options)
  }

  /// Parses one JSON text, with the array at `path` (object keys from the top; `[]` for a text that
  /// is itself an array, whose value is then the empty array) taken out of the value and returned as
  /// `JSONItems`, parsed one item at a time when read: the tree of the whole text is never built.
  /// When no array is there, the value is whole and the items nil. The text
  /// is checked as `parse(bytes:)` checks it, each item when it is read (it is parsed then, once),
  /// and a raw NUL byte is refused anywhere (jansson
  /// lets one pass after a number). `isCancelled` is asked between items; a cancel throws kind
  /// `.cancelled`.
  public static func parse(
    bytes: [UInt8], options: JSONReadOptions = .default, deferringItemsAt path: [String],
    isCancelled: @escaping () -> Bool = { false }
  ) throws(JSONError) -> (value: JSONValue, items: JSONItems?) {
    try JanssonDecoder.decode(bytes, options: options, deferringItemsAt: path, isCancelled: isCancelled)
  }

  /// Parses one JSON text from a string.
  public static func parse(_ text: String, options: JSONReadOptions = .default) throws(JSONError) -> JSONValue {
    // Read in place, not copied first: the engine parses a string-encoded object (`action_params`,
    // `u`) per message, ten thousand times in a large sync.
    var text = text
    let attempt = text.withUTF8 { buffer in
      Result { () throws(JSONError) in try JanssonDecoder.decode(UnsafeRawBufferPointer(buffer), options: options) }
    }
    return try attempt.get()
  }

  /// The compact UTF-8 encoding: no newline anywhere, so it is one NDJSON frame as it stands.
  public func serialized() -> [UInt8] {
    JanssonEncoder.encode(self)
  }

  /// The compact encoding with every object's members in the order of their keys' UTF-8 bytes,
  /// at any depth: the same text for values that differ only in member order.
  public func serializedSortingKeys() -> [UInt8] {
    JanssonEncoder.encode(self, sortingKeys: true)
  }

  /// The compact encoding followed by `terminator` (an NDJSON frame's newline), in one buffer.
  public func serialized(terminatedBy terminator: UInt8) -> [UInt8] {
    JanssonEncoder.encode(self, terminator: terminator)
  }

  /// The compact encoding as a string.
  public var jsonString: String {
    String(decoding: serialized(), as: UTF8.self)
  }
}
