internal import CJansson
import Dispatch

/// A long list inside a reply (a sync's thousands of messages), read on both cores: the parse is one
/// jansson call, but converting each item and dumping its text are independent per item.
extension JanssonDecoder {
  /// Lists shorter than this are read on the calling thread alone: a second thread would cost more
  /// than it saves.
  static let itemsReadInHalves = 512

  /// `decode`, plus the compact text of each item of the array found at `path` (object keys from the
  /// top), nil when there is no array there. Each text is dumped from the parser's own tree, which
  /// keeps member order, so it is byte for byte what `JanssonEncoder` writes for the converted item,
  /// and released from the tree once read, so the parser's tree shrinks as the Swift values grow.
  /// `isCancelled` is asked between chunks of the input and of the items.
  static func decode(
    _ bytes: UnsafeRawBufferPointer, options: JSONReadOptions, itemTextsAt path: [String],
    isCancelled: (@Sendable () -> Bool)? = nil
  ) throws(JSONError) -> (value: JSONValue, itemTexts: [String]?) {
    try read(try load(bytes, isCancelled: isCancelled), options: options, itemTextsAt: path, isCancelled: isCancelled)
  }

  /// `decode` of a tree already loaded, which this releases.
  static func read(
    _ root: UnsafeMutablePointer<json_t>, options: JSONReadOptions, itemTextsAt path: [String],
    isCancelled: (@Sendable () -> Bool)?
  ) throws(JSONError) -> (value: JSONValue, itemTexts: [String]?) {
    var node: UnsafeMutablePointer<json_t>? = root
    for key in path {
      node = node.flatMap { cj_typeof($0) == JSON_OBJECT ? json_object_get($0, key) : nil }
    }
    guard let array = node, cj_typeof(array) == JSON_ARRAY else {
      defer { json_decref(root) }
      return (try convert(root, depth: 1, options: options), nil)
    }
    let count = json_array_size(array)
    defer { release(root, large: count >= itemsReadInHalves) }
    // The array is converted at depth 1 + path.count (the root is 1), its items one deeper.
    let depth = 1 + path.count
    guard depth < options.maxDepth || count == 0 else { throw tooDeep(options) }
    let (items, texts) = try readItems(
      of: array, count: count, depth: depth + 1, options: options, isCancelled: isCancelled ?? { false })
    let value = try convert(root, depth: 1, options: options, substituting: (array, .array(items)))
    return (value, texts)
  }

  /// Each item converted and its compact text dumped; a long array in two halves side by side.
  /// Both only read the tree, which jansson allows from several threads (since 2.14 a dump keeps
  /// the containers it is inside in a table of its own, not in flags on the nodes).
  private static func readItems(
    of array: UnsafeMutablePointer<json_t>, count: Int, depth: Int, options: JSONReadOptions,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(JSONError) -> ([JSONValue], [String]) {
    var items = [JSONValue](repeating: .null, count: count)
    var texts = [String](repeating: "", count: count)
    let halves = count >= itemsReadInHalves ? 2 : 1
    var failures = [JSONError?](repeating: nil, count: halves)
    items.withUnsafeMutableBufferPointer { items in
      texts.withUnsafeMutableBufferPointer { texts in
        failures.withUnsafeMutableBufferPointer { failures in
          let slots = Slots(
            array: array, items: items, texts: texts, failures: failures, isCancelled: isCancelled)
          DispatchQueue.concurrentPerform(iterations: halves) { half in
            slots.read((count * half / halves)..<(count * (half + 1) / halves), half: half, depth, options)
          }
        }
      }
    }
    if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
    return (items, texts)
  }

  /// Where the halves write: each only the offsets of its own range, so no two threads share a slot.
  private struct Slots: @unchecked Sendable {
    let array: UnsafeMutablePointer<json_t>
    let items: UnsafeMutableBufferPointer<JSONValue>
    let texts: UnsafeMutableBufferPointer<String>
    let failures: UnsafeMutableBufferPointer<JSONError?>
    let isCancelled: @Sendable () -> Bool

    /// Items read between two questions to `isCancelled`.
    private static let itemsPerCheck = 1024

    func read(_ range: Range<Int>, half: Int, _ depth: Int, _ options: JSONReadOptions) {
      do throws(JSONError) {
        for offset in range {
          if (offset - range.lowerBound) % Self.itemsPerCheck == Self.itemsPerCheck - 1, isCancelled() {
            throw JSONError(kind: .cancelled, message: "the read was cancelled")
          }
          guard let item = json_array_get(array, offset) else { continue }
          items[offset] = try convert(item, depth: depth, options: options)
          texts[offset] = JanssonEncoder.dump(item)
          // Each half replaces only its own slots; the shared null is never freed.
          json_array_set_new(array, offset, json_null())
        }
      } catch {
        failures[half] = error
      }
    }
  }

  /// Releases a tree; a large one on another thread, so freeing its nodes does not hold up the caller.
  private static func release(_ root: UnsafeMutablePointer<json_t>, large: Bool) {
    guard large else { return json_decref(root) }
    let tree = UncheckedTree(root: root)
    DispatchQueue.global(qos: .utility).async { json_decref(tree.root) }
  }

  /// A tree no other code holds any more, handed to the thread that frees it.
  private struct UncheckedTree: @unchecked Sendable {
    let root: UnsafeMutablePointer<json_t>
  }
}
