/// Whether a JSON file is an inbox payload, told from its content rather than its name: a
/// createMessage request, one or many notification objects, a push payload or a backend inbox
/// message names one of these members near its start (its top object, or its array's first
/// element). Only the head of the file is read, so an edit of a long file costs no extra parse.
enum PayloadKind {
  static let markers = [
    "request", "notifications", "inbox_image", "inbox_date", "inbox_days", "content", "data", "u", "aps",
    "inbox_id", "send_date", "platforms", "title", "ios_title", "android_header", "rt", "pw_msg", "p",
  ]
  private static let head = 16 * 1024

  static func recognises(_ bytes: [UInt8]) -> Bool {
    guard let first = bytes.firstIndex(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }),
      bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[")
    else { return false }
    let window = bytes[first..<min(bytes.count, first + head)]
    // Text being typed that names no member yet is checked too, so its error shows.
    guard window.contains(UInt8(ascii: ":")) else { return true }
    return markers.contains { marker in memberNamed(marker, in: window) }
  }

  /// Whether `"name"` followed by a colon occurs in `window`.
  private static func memberNamed(_ name: String, in window: ArraySlice<UInt8>) -> Bool {
    let needle = Array("\"\(name)\"".utf8)
    var at = window.startIndex
    while at + needle.count <= window.endIndex {
      if window[at] == needle[0], window[at..<(at + needle.count)].elementsEqual(needle) {
        var after = at + needle.count
        while after < window.endIndex, [0x20, 0x0A, 0x0D, 0x09].contains(window[after]) { after += 1 }
        if after < window.endIndex, window[after] == UInt8(ascii: ":") { return true }
      }
      at += 1
    }
    return false
  }
}
