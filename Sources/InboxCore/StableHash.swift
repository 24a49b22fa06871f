/// FNV-1a hashes, because avatar colours and derived ids must be the same on every run and platform.
///
/// Swift's `Hasher` is seeded per process, so it cannot be used for anything that is shown or stored.
enum StableHash {
  /// 32-bit FNV-1a of the bytes.
  static func fnv1a32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in bytes {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    return hash
  }

  /// 64-bit FNV-1a of the bytes.
  static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// The value as lower-case hex, zero-padded to 16 digits.
  static func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
  }
}
