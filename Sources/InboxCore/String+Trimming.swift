// Whitespace trimming without Foundation, for every module above the engine too.

extension String {
  /// The string without leading and trailing whitespace and newlines.
  public func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.isSpace }) else { return "" }
    guard let last = scalars.lastIndex(where: { !$0.isSpace }) else { return "" }
    if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
    return String(scalars[first...last])
  }

  /// True when the string is empty or only whitespace.
  var isBlank: Bool { unicodeScalars.allSatisfy { $0.isSpace } }

  /// The string in double quotes, shortened past 80 characters, for warning texts.
  var quotedForMessage: String {
    let shown = count > 80 ? String(prefix(77)) + "..." : self
    return "\"\(shown)\""
  }
}

extension Unicode.Scalar {
  /// Unicode's White_Space, answered without the property lookup for the common ASCII letters.
  fileprivate var isSpace: Bool {
    if value > 0x20 && value < 0x7F { return false }
    return properties.isWhitespace
  }
}
