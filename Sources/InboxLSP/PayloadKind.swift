import JSON

/// Whether a JSON file is an inbox payload, told from its content rather than its name: a
/// createMessage request, one or many notification objects, a push payload or a backend inbox
/// message has one of these members at its top (or in its array's first element).
enum PayloadKind {
  static let markers: Set<String> = [
    "request", "notifications", "inbox_image", "inbox_date", "inbox_days", "content", "data", "u", "aps",
    "inbox_id", "send_date", "platforms", "title", "ios_title", "android_header", "rt", "pw_msg", "p",
  ]

  static func recognises(_ bytes: [UInt8]) -> Bool {
    guard let value = try? JSONValue.parse(bytes: bytes[...]) else {
      // Text being typed is not JSON yet: it is checked, so the error shows, when it starts like a payload.
      return bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }).map {
        $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
      } ?? false
    }
    let top = value.arrayValue?.first ?? value
    guard let object = top.objectValue else { return false }
    return object.members.contains { markers.contains($0.key) }
  }
}
