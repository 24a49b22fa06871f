#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File names are bytes, not text: a name made on a Latin-1 system (`caf\xE9.json`) is no UTF-8.
/// Such a name travels through the program as a `String` in which each byte that is not part of
/// valid UTF-8 stands as one private-use scalar (U+10FF80 to U+10FFFF for bytes 0x80 to 0xFF), so it
/// can be opened as given (`cString`) and shown as `\xE9` (`escapingControlCharacters`, in JSON)
/// instead of being replaced by U+FFFD and lost.
public enum FileName {
  /// The scalar standing for the byte `base + byte`.
  public static let base: UInt32 = 0x10FF00

  /// The byte a scalar stands for, or nil for a scalar that is itself.
  public static func byte(of scalar: Unicode.Scalar) -> UInt8? {
    scalar.value >= base + 0x80 && scalar.value <= base + 0xFF ? UInt8(scalar.value - base) : nil
  }

  /// A name as the system gave it: valid UTF-8 as text, each other byte as its scalar.
  public static func decode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var text = ""
    var at = 0
    while at < input.count {
      var decoder = UTF8()
      var rest = input[at...].makeIterator()
      // A scalar of the range that stands for bytes is kept as its bytes, so `bytes` gives them back.
      if case .scalarValue(let scalar) = decoder.decode(&rest), byte(of: scalar) == nil {
        text.unicodeScalars.append(scalar)
        at += UTF8.width(scalar)
      } else {
        text.unicodeScalars.append(Unicode.Scalar(base + UInt32(input[at]))!)
        at += 1
      }
    }
    return text
  }

  /// The bytes a name stands for: the inverse of `decode`.
  public static func bytes(_ name: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars {
      if let byte = byte(of: scalar) { bytes.append(byte) } else { bytes += UTF8.encode(scalar)! }
    }
    return bytes
  }

  /// Calls `body` with the name as the NUL-terminated bytes a system call takes.
  public static func withCString<Result>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows
    -> Result
  {
    guard name.unicodeScalars.contains(where: { byte(of: $0) != nil }) else { return try name.withCString(body) }
    let bytes = Self.bytes(name).map { CChar(bitPattern: $0) } + [0]
    return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
  }

  /// The program's arguments as the system gave them (`CommandLine.arguments` replaces bytes that
  /// are not UTF-8 by U+FFFD, which would lose a file name).
  public static var arguments: [String] {
    (0..<Int(CommandLine.argc)).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return "" }
      return decode(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
    }
  }
}
