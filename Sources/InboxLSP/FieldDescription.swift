import LintReport

/// What a hover on a member's name says above the card: the schema's description of that member
/// (Schemas/, the contract the server embeds), as a payload author reads it in the docs.
enum FieldDescription {
  /// The description of the member whose name is at `offset`, with the name's bytes; nil off a
  /// name, or for a member the schemas do not describe.
  static func at(_ offset: Int, in bytes: [UInt8], schemas: SchemaCompletion) -> (text: String, name: Range<Int>)? {
    guard let string = JSONCursor.string(bytes, around: offset), isName(string, in: bytes) else { return nil }
    let place = JSONCursor.place(bytes, at: string.lowerBound)
    guard place.atKey else { return nil }
    let pointer = place.pointer + [JSONScanner.string(bytes, string.lowerBound).value]
    guard let schema = schemas.schema(at: pointer, rootIsRequest: pointer.first == "request"),
      let description = schemas.description(schema)
    else { return nil }
    return (description, string)
  }

  /// Whether the string is a member's name: a colon follows it.
  private static func isName(_ string: Range<Int>, in bytes: [UInt8]) -> Bool {
    let after = JSONScanner.skipSpace(bytes, string.upperBound)
    return after < bytes.count && bytes[after] == UInt8(ascii: ":")
  }
}
