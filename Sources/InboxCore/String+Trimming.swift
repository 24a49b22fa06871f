// Whitespace trimming without Foundation, for every module above the engine too.

extension String {
  /// The string without leading and trailing whitespace and newlines.
  public func trimmingWhitespace() -> String {
    // The usual case, read from the bytes: Unicode's property table is slow for every id and number.
    if let first = utf8.first, let last = utf8.last, Self.isASCIIVisible(first), Self.isASCIIVisible(last) {
      return self
    }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    guard let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    return String(scalars[first...last])
  }

  /// True when the string is empty or only whitespace.
  var isBlank: Bool {
    if let first = utf8.first, Self.isASCIIVisible(first) { return false }
    return unicodeScalars.allSatisfy { $0.properties.isWhitespace }
  }

  /// An ASCII byte that is not whitespace (whitespace in ASCII: tab to carriage return, and space).
  private static func isASCIIVisible(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
  }

  /// The string in double quotes, shortened past 80 characters, for warning texts.
  var quotedForMessage: String {
    let shown = count > 80 ? String(prefix(77)) + "..." : self
    return "\"\(shown)\""
  }
}
