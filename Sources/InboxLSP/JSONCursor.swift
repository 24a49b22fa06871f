import LintReport

/// Reads a JSON text around one place, tolerating text still being typed: which member or element
/// a byte offset is in (where a value ends is `JSONScanner`'s, which lint walks with too).
enum JSONCursor {
  /// Where the cursor is: the pointer of the innermost value holding `offset`, and whether it is at
  /// a member's name (where a key is typed) rather than its value.
  struct Place: Equatable {
    var pointer: [String]
    var atKey: Bool
    /// The name of the member the value belongs to, when the cursor is at a value.
    var key: String? { atKey ? nil : pointer.last }
  }

  /// Walks the text up to `offset`, keeping the open objects and arrays with the member or index
  /// each is at.
  static func place(_ bytes: [UInt8], at offset: Int) -> Place {
    enum Frame {
      case object(key: String?, expectingKey: Bool)
      case array(index: Int)
    }
    var stack: [Frame] = []
    var at = 0
    var lastString: String?
    let end = min(offset, bytes.count)
    while at < end {
      let byte = bytes[at]
      switch byte {
      case UInt8(ascii: "\""):
        let close = JSONScanner.stringEnd(bytes, at)
        if close > end {  // the cursor is inside this string
          at = end
          continue
        }
        lastString = String(decoding: bytes[(at + 1)..<max(at + 1, close - 1)], as: UTF8.self)
        if case .object(_, true) = stack.last { stack[stack.count - 1] = .object(key: lastString, expectingKey: true) }
        at = close
        continue
      case UInt8(ascii: "{"): stack.append(.object(key: nil, expectingKey: true))
      case UInt8(ascii: "["): stack.append(.array(index: 0))
      case UInt8(ascii: "}"), UInt8(ascii: "]"): if !stack.isEmpty { stack.removeLast() }
      case UInt8(ascii: ":"):
        if case .object(let key, _) = stack.last { stack[stack.count - 1] = .object(key: key, expectingKey: false) }
      case UInt8(ascii: ","):
        switch stack.last {
        case .object: stack[stack.count - 1] = .object(key: nil, expectingKey: true)
        case .array(let index): stack[stack.count - 1] = .array(index: index + 1)
        case nil: break
        }
      default: break
      }
      at += 1
    }
    var pointer: [String] = []
    var atKey = false
    for (depth, frame) in stack.enumerated() {
      switch frame {
      case .array(let index): pointer.append(String(index))
      case .object(let key, let expectingKey):
        if expectingKey, depth == stack.count - 1 {
          atKey = true
        } else if let key {
          pointer.append(key)
        }
      }
    }
    return Place(pointer: pointer, atKey: atKey)
  }

  /// The string (its quotes included; an unclosed one up to its line's end) that `offset` is in or
  /// at either end of, found by walking the strings before it.
  static func string(_ bytes: [UInt8], around offset: Int) -> Range<Int>? {
    var at = 0
    while at <= offset, at < bytes.count {
      guard bytes[at] == UInt8(ascii: "\"") else {
        at += 1
        continue
      }
      let end = JSONScanner.stringEnd(bytes, at)
      if offset <= end { return at..<end }
      at = end
    }
    return nil
  }
}
