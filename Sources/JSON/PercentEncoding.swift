import Posix

/// RFC 3986 percent-encoding, for the URIs that carry JSON pointers and ids (`$ref` fragments,
/// SARIF artifact locations, MCP resource URIs).
public enum PercentEncoding {
  /// `text` with every byte outside the unreserved characters (and `also`) written `%XX`.
  public static func encode(_ text: String, keeping also: String = "") -> String {
    var out = ""
    // A file name's byte that is not UTF-8 (`FileName`) is encoded as that byte: the URI names the file.
    for byte in FileName.bytes(text) {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case _ where also.utf8.contains(byte):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// `%XX` sequences decoded as UTF-8; nil when one is malformed or the bytes are not UTF-8.
  public static func decode<Text: StringProtocol>(_ text: Text) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
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
