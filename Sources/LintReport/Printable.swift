extension String {
  /// The text with control characters (C0, DEL, C1) written as `\u{…}`, so a payload's text shown
  /// in a terminal or a CI log cannot move the cursor, recolour or hide what follows; `keeping`
  /// names the ones a format escapes its own way.
  public func escapingControls(keeping: Set<Unicode.Scalar> = []) -> String {
    guard unicodeScalars.contains(where: { $0.isControl && !keeping.contains($0) }) else { return self }
    var result = ""
    for scalar in unicodeScalars {
      if scalar.isControl && !keeping.contains(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension Unicode.Scalar {
  fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
