import JSON

/// Ids for send-request objects that come without one, so previewing the same payload twice gives one id.
///
/// The id is `"sr-"` followed by the 16 hex digits of the 64-bit FNV-1a hash of the payload's canonical
/// bytes: the compact JSON encoding with every object's keys sorted by their UTF-8 bytes, recursively. Key
/// order and whitespace therefore do not change the id; any value does. The send time is not part of it.
public enum StableID {
  /// The derived id of a payload, e.g. `sr-3f9a0c1d2e4b5a69`.
  public static func derive(from payload: JSONValue) -> String {
    derive(canonical: payload.serializedSortingKeys())
  }

  /// The derived id of the payload whose canonical bytes are `canonical` (a reader that holds
  /// them already: lint's, from the parser's tree).
  public static func derive(canonical: [UInt8]) -> String {
    "sr-" + StableHash.hex16(StableHash.fnv1a64(canonical))
  }
}
