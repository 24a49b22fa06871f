import LintReport

/// The objects and arrays of a JSON text, found in one walk that skips strings (text being typed
/// too: an unclosed string ends at its line's end): each with the offsets of its opening and
/// closing bracket, innermost first. Folding ranges and range formatting read the text this way.
enum JSONContainers {
  struct Container: Equatable {
    /// The offset of `{` or `[`.
    var open: Int
    /// The offset of the matching `}` or `]`.
    var close: Int
  }

  /// Every closed container, in the order they close (an inner one before the one holding it).
  static func all(_ bytes: [UInt8]) -> [Container] {
    var found: [Container] = []
    walk(bytes) { container in
      found.append(container)
      return false
    }
    return found
  }

  /// The innermost container holding the bytes `range`, nil when none does.
  static func innermost(holding range: Range<Int>, in bytes: [UInt8]) -> Container? {
    var found: Container?
    // Containers holding the range nest, so the first of them to close is the innermost.
    walk(bytes) { container in
      guard container.open <= range.lowerBound, container.close + 1 >= range.upperBound else { return false }
      found = container
      return true
    }
    return found
  }

  /// Calls `visit` with each container as it closes, until it answers true.
  private static func walk(_ bytes: [UInt8], _ visit: (Container) -> Bool) {
    var opens: [Int] = []
    var at = 0
    while at < bytes.count {
      switch bytes[at] {
      case UInt8(ascii: "\""):
        at = JSONScanner.stringEnd(bytes, at)
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): opens.append(at)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if let open = opens.popLast(), visit(Container(open: open, close: at)) { return }
      default: break
      }
      at += 1
    }
  }
}
