import Posix

/// Payload text made safe to show on one line to a person or an agent (a terminal, a log, a tool's
/// text): control characters, line and paragraph separators and bidirectional overrides are written
/// as visible escapes (`\n`, `\r`, `\t`, `\u001b`), so a payload can neither move the cursor, set a
/// terminal's title, hide what follows, nor start a line that looks like the program's own.
/// Backslashes are kept as they are: the escapes make text visible, they are not meant to be decoded.
/// File names go through it too: a byte of a name that is not UTF-8 (`FileName`) shows as `\xE9`.
extension String {
  public var escapingControlCharacters: String { escapingControlCharacters(keeping: []) }

  /// The same, leaving the scalars in `keeping` as they are, for a format that escapes them its own
  /// way (GitHub's workflow commands write CR and LF as `%0D` and `%0A`).
  public func escapingControlCharacters(keeping: Set<Unicode.Scalar>) -> String {
    // Printable ASCII, what most lines are, has nothing to escape.
    guard utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return self }
    func escaped(_ scalar: Unicode.Scalar) -> Bool { Self.needsEscape(scalar) && !keeping.contains(scalar) }
    guard unicodeScalars.contains(where: escaped) else { return self }
    var text = ""
    text.reserveCapacity(utf8.count + 16)
    for scalar in unicodeScalars {
      guard escaped(scalar) else {
        text.unicodeScalars.append(scalar)
        continue
      }
      if let byte = FileName.byte(of: scalar) {
        text += "\\x" + String(byte, radix: 16, uppercase: true)
        continue
      }
      switch scalar {
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      default:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      }
    }
    return text
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case FileName.base + 0x80...FileName.base + 0xFF: return true  // a byte of a file name that is not UTF-8
    case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (0x9B is a CSI on some terminals)
    case 0x2028, 0x2029: return true  // line and paragraph separators
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional controls
    default: return false
    }
  }
}
