import CCrypto

/// SHA-256, for the digest a trace keeps of a frame it cannot parse (the frame's identity without
/// its content) and the name a downloaded wallet pass is kept under. Computed by OpenSSL's
/// libcrypto, loaded on first use (`CCrypto`).
public enum SHA256 {
  /// The digest of `bytes` as 64 lower-case hex digits; nil when libcrypto cannot be loaded here.
  public static func hex(_ bytes: some Collection<UInt8>) -> String? {
    guard let digest = hash(bytes) else { return nil }
    return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8]? {
    let message = Array(bytes)
    var digest = [UInt8](repeating: 0, count: 32)
    let failure = message.withUnsafeBytes { input in
      digest.withUnsafeMutableBufferPointer { ccrypto_sha256(input.baseAddress, input.count, $0.baseAddress) }
    }
    return failure == nil ? digest : nil
  }
}
