import JSON

/// Reads the `pinned` flag, so every spelling a dashboard produces means the same thing (docs/engine.md#pinning).
///
/// Pinned when the looked-up value (root, `u`, `userdata`) is `true`, the string `"true"` in any case
/// (surrounding whitespace ignored), or the number 1 (`1` or `1.0`). Anything else, missing included, is
/// not pinned: `false`, `"yes"`, `0`, `2`, `"1"`.
public enum Pinning {
  /// Whether a `pinned` value pins the message.
  public static func isPinned(_ value: JSONValue?) -> Bool {
    switch value {
    case .bool(let flag)?: return flag
    case .string(let text)?: return text.trimmingWhitespace().lowercased() == "true"
    case .int(let number)?: return number == 1
    case .double(let number)?: return number == 1
    default: return false
    }
  }
}

extension InboxMessage {
  /// Whether the message floats to the top of the feed (`pinned` through the one lookup).
  public var isPinned: Bool { Pinning.isPinned(value(for: "pinned")) }
}
