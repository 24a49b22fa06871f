internal import CJansson

/// The items of one array of a parsed text, kept as spans of the text and parsed one at a time,
/// once each, when asked (`JSONValue.parse(bytes:deferringItemsAt:)`): a reader of a long list holds the text
/// and one item's tree, never the tree of the whole list. Immutable, so threads may share it.
public final class JSONItems: @unchecked Sendable, Hashable {
  private let text: [UInt8]
  private let spans: [Range<Int>]
  /// The depth of an item, counted as the whole text's reader counts it.
  private let depth: Int
  private let options: JSONReadOptions

  init(text: [UInt8], spans: [Range<Int>], depth: Int, options: JSONReadOptions) {
    self.text = text
    self.spans = spans
    self.depth = depth
    self.options = options
  }

  public var count: Int { spans.count }

  /// Where item `offset` is in the text: a reader that reports positions places it from there.
  public func span(at offset: Int) -> Range<Int> { spans[offset] }

  /// One item parsed, to read as the caller needs it; its tree is freed with it.
  public final class Item {
    fileprivate let node: UnsafeMutablePointer<json_t>
    private let depth: Int
    private let options: JSONReadOptions

    fileprivate init(node: UnsafeMutablePointer<json_t>, depth: Int, options: JSONReadOptions) {
      self.node = node
      self.depth = depth
      self.options = options
    }

    deinit { json_decref(node) }

    /// The item converted. Throws for one nested deeper than the read options allow.
    public func value() throws(JSONError) -> JSONValue {
      try JanssonDecoder.convert(node, depth: depth, options: options)
    }

    /// What `value().serializedSortingKeys()` gives, written from the parser's tree: the item is
    /// not built again from its Swift value to be written.
    public func serializedSortingKeys() -> [UInt8] {
      JanssonEncoder.encode(node, sortingKeys: true)
    }

    /// The compact text when it is at most `limit` bytes, else nil, with its length: byte for byte
    /// what `jsonString` writes for `value()` (the tree keeps member order); a longer one is
    /// measured without being written out.
    public func text(upTo limit: Int = Int.max) -> (text: String?, size: Int) {
      JanssonEncoder.dump(node, upTo: limit)
    }

    /// The member `key` when the item is an object, read alone (an item too deep to read whole
    /// may still name itself).
    public func member(_ key: String) -> JSONValue? {
      guard cj_typeof(node) == JSON_OBJECT, let value = json_object_get(node, key) else { return nil }
      return try? JanssonDecoder.convert(value, depth: depth + 1, options: options)
    }
  }

  /// Item `offset`, parsed from its span, the one time it is parsed: throws (kind `.syntax` and
  /// the others of `JSONValue.parse`) for a span that is not one JSON value, read whole.
  public func item(at offset: Int) throws(JSONError) -> Item {
    let span = spans[offset]
    let loaded = text.withUnsafeBytes { buffer in
      Result { () throws(JSONError) in
        try JanssonDecoder.loadOne(UnsafeRawBufferPointer(rebasing: buffer[..<span.upperBound]), at: span.lowerBound)
      }
    }
    let (node, length) = try loaded.get()
    guard length == span.count else {
      json_decref(node)
      throw JSONError(kind: .syntax, message: "end of value expected", position: span.lowerBound + length)
    }
    return Item(node: node, depth: depth, options: options)
  }

  /// Every item converted (a short list, or a test).
  public func values() throws(JSONError) -> [JSONValue] {
    var values: [JSONValue] = []
    values.reserveCapacity(count)
    for offset in 0..<count { values.append(try item(at: offset).value()) }
    return values
  }

  /// Equal items in the same order.
  public static func == (lhs: JSONItems, rhs: JSONItems) -> Bool {
    lhs === rhs || (lhs.count == rhs.count && (try? lhs.values()) == (try? rhs.values()))
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(count) }
}
