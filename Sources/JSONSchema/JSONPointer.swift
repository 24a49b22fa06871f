extension String {
  /// A JSON pointer token with `~1` and `~0` read back as `/` and `~` (RFC 6901).
  var unescapingJSONPointer: String {
    guard contains("~") else { return self }
    var result = ""
    var iterator = makeIterator()
    while let character = iterator.next() {
      guard character == "~" else {
        result.append(character)
        continue
      }
      switch iterator.next() {
      case "1": result.append("/")
      case "0": result.append("~")
      case let other?: result.append("~\(other)")
      case nil: result.append("~")
      }
    }
    return result
  }
}
