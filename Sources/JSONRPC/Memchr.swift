#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Offset of the first `byte` in `count` bytes at `base`, using libc's vectorised memchr.
func memchrIndex(_ base: UnsafePointer<UInt8>, count: Int, byte: UInt8) -> Int? {
  guard count > 0, let hit = memchr(base, Int32(byte), count) else { return nil }
  return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
}
