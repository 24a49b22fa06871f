/// Base64url without padding (RFC 4648 §5): cursors travel in JSON and URLs as they are.
enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let values: [UInt8: UInt8] = Dictionary(
    uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt8($0.offset)) })

  static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let value = chunk.reduce(0) { $0 << 8 | UInt32($1) } << (8 * UInt32(3 - chunk.count))
      for position in 0..<(chunk.count + 1) {
        output.append(alphabet[Int(value >> UInt32(18 - 6 * position) & 0x3F)])
      }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes, or nil for a character outside the alphabet or an impossible length.
  static func decode(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    var index = 0
    while index < digits.count {
      let chunk = digits[index..<min(index + 4, digits.count)]
      var value: UInt32 = 0
      for digit in chunk {
        guard let sextet = values[digit] else { return nil }
        value = value << 6 | UInt32(sextet)
      }
      value <<= 6 * UInt32(4 - chunk.count)
      for position in 0..<(chunk.count - 1) { output.append(UInt8(value >> UInt32(16 - 8 * position) & 0xFF)) }
      index += 4
    }
    return output
  }
}
