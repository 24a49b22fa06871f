/// The URIs of the inbox's resources.
enum ResourceURI {
  static let feed = "inbox://feed"
  static let counts = "inbox://counts"
  static let contract = "inbox://schemas/openrpc.json"
  static let messagePrefix = "inbox://message/"
  static let messageTemplate = "inbox://message/{id}"

  static func message(_ id: String) -> String { messagePrefix + percentEncoded(id) }

  /// The message id a `inbox://message/{id}` URI names.
  static func messageID(_ uri: String) -> String? {
    guard uri.hasPrefix(messagePrefix) else { return nil }
    let id = String(uri.dropFirst(messagePrefix.count)).removingPercentEncoding
    return id?.isEmpty == false ? id : nil
  }

  static func isKnown(_ uri: String) -> Bool {
    uri == feed || uri == counts || uri == contract || messageID(uri) != nil
  }

  /// RFC 3986 unreserved characters pass; every other byte is %XX.
  private static func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }
}

extension String {
  /// `%XX` sequences decoded as UTF-8; nil when one is malformed or the bytes are not UTF-8.
  fileprivate var removingPercentEncoding: String? {
    var bytes: [UInt8] = []
    var iterator = utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
