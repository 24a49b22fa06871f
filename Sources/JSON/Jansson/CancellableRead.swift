internal import CJansson

#if canImport(Glibc)
  import Glibc
#endif

/// Feeds bytes to jansson through `json_load_callback`, asking `isCancelled` between chunks, so the
/// parse of a long reply (seconds for a hundred megabytes) stops soon after a cancel: the callback
/// answers "no more input", jansson gives up, and the caller reports the cancel instead.
final class CancellableRead {
  private let bytes: UnsafeRawBufferPointer
  private let isCancelled: () -> Bool
  private var offset = 0
  private var calls = 0
  private(set) var wasCancelled = false

  /// jansson asks for 1 KiB at a time; the token is asked every this many calls (256 KiB).
  private static let callsPerCheck = 256

  init(_ bytes: UnsafeRawBufferPointer, isCancelled: @escaping () -> Bool) {
    self.bytes = bytes
    self.isCancelled = isCancelled
  }

  /// The C tree of the bytes (the caller releases it); nil with `error` set on a parse error or a
  /// cancel (then `wasCancelled`).
  func load(flags: Int, error: inout json_error_t) -> UnsafeMutablePointer<json_t>? {
    withExtendedLifetime(self) {
      json_load_callback(
        { buffer, length, context in
          guard let buffer, let context else { return 0 }
          return Unmanaged<CancellableRead>.fromOpaque(context).takeUnretainedValue().fill(buffer, length)
        }, Unmanaged.passUnretained(self).toOpaque(), flags, &error)
    }
  }

  private func fill(_ buffer: UnsafeMutableRawPointer, _ length: Int) -> Int {
    calls += 1
    if calls % Self.callsPerCheck == 0, isCancelled() {
      wasCancelled = true
      return -1  // (size_t)-1: jansson stops reading
    }
    let count = min(length, bytes.count - offset)
    guard count > 0, let base = bytes.baseAddress else { return 0 }
    memcpy(buffer, base + offset, count)
    offset += count
    return count
  }
}
