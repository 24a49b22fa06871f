internal import CJansson

/// A value turned into jansson's tree once, for a value written many times unchanged (a cached
/// card in every page that shows it): encoding it takes a reference to the tree instead of
/// building it again. The tree is never changed after it is made, so threads may share it.
public final class PrebuiltJSON: @unchecked Sendable, Hashable {
  /// The value the tree was made from; reads of a `.prebuilt` value see this.
  public let value: JSONValue
  let node: UnsafeMutablePointer<json_t>?
  /// The length of the value's compact text in bytes (what it adds to a reply), counted once.
  public let encodedSize: Int

  public init(_ value: JSONValue) {
    self.value = value
    node = JanssonEncoder.build(value)
    encodedSize = JanssonEncoder.size(node)
  }

  deinit { json_decref(node) }

  public static func == (lhs: PrebuiltJSON, rhs: PrebuiltJSON) -> Bool { lhs.value == rhs.value }
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
