/// FNV-1a hashes, because avatar colours and derived ids must be the same on every run and platform.
///
/// Swift's `Hasher` is seeded per process, so it cannot be used for anything that is shown or stored.
enum StableHash {
  /// 32-bit FNV-1a of the bytes.
  static func fnv1a32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    fnv1a(bytes, offsetBasis: 0x811C_9DC5, prime: 0x0100_0193)
  }

  /// 64-bit FNV-1a of the bytes.
  static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    fnv1a(bytes, offsetBasis: 0xCBF2_9CE4_8422_2325, prime: 0x0000_0100_0000_01B3)
  }

  private static func fnv1a<Hash: FixedWidthInteger>(_ bytes: some Sequence<UInt8>, offsetBasis: Hash, prime: Hash)
    -> Hash
  {
    bytes.reduce(offsetBasis) { hash, byte in (hash ^ Hash(byte)) &* prime }
  }

  /// The value as lower-case hex, zero-padded to 16 digits.
  static func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
  }
}
