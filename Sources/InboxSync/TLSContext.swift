internal import COpenSSL
import Synchronization

/// The OpenSSL client context every https transfer starts its session from: TLS 1.2 or later, the
/// server's certificate verified (`SSL_VERIFY_PEER`) against the system's CA store, or against the
/// CAs of one PEM file instead when one is given (a private CA, a test CA).
///
/// The system store is OpenSSL's default: `SSL_CERT_FILE` / `SSL_CERT_DIR` when set, else the
/// `certs` directory and `cert.pem` under OpenSSL's directory (`/usr/lib/ssl` on Debian, which links
/// to `/etc/ssl/certs`). A context is made on first use, never at start-up (loading the store takes
/// milliseconds), then shared: a set-up `SSL_CTX` is safe to use from many threads.
final class TLSContext: @unchecked Sendable {
  let pointer: OpaquePointer

  private init(pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit { SSL_CTX_free(pointer) }

  /// Contexts made so far, by CA file ("" for the system store). A failure is not kept: the file may
  /// be fixed before the next sync.
  private static let contexts = Mutex<[String: TLSContext]>([:])

  /// The context for `caFile`, or for the system store when nil.
  static func shared(caFile: String?) throws(HTTPTransfer.Failure) -> TLSContext {
    let key = caFile ?? ""
    return try contexts.withLock { (contexts: inout [String: TLSContext]) throws(HTTPTransfer.Failure) in
      if let context = contexts[key] { return context }
      let context = try make(caFile: caFile)
      contexts[key] = context
      return context
    }
  }

  private static func make(caFile: String?) throws(HTTPTransfer.Failure) -> TLSContext {
    ERR_clear_error()
    guard let pointer = SSL_CTX_new(TLS_client_method()) else {
      throw .transport(reason: "TLS: cannot make a context: \(errorText())")
    }
    let context = TLSContext(pointer: pointer)
    guard cssl_ctx_set_min_proto_version(pointer, TLS1_2_VERSION) == 1 else {
      throw .transport(reason: "TLS: cannot require TLS 1.2: \(errorText())")
    }
    SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER, nil)
    cssl_ctx_set_partial_moving_writes(pointer)
    cssl_ctx_ignore_unexpected_eof(pointer)
    if let caFile {
      guard SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1 else {
        throw .transport(reason: "TLS: cannot load CA certificates from \(caFile): \(errorText())")
      }
    } else {
      guard SSL_CTX_set_default_verify_paths(pointer) == 1 else {
        throw .transport(reason: "TLS: cannot load the system's CA certificates: \(errorText())")
      }
    }
    return context
  }

  /// The oldest error on this thread's OpenSSL error queue, in OpenSSL's words; the queue is emptied.
  static func errorText(or fallback: String = "unknown error") -> String {
    defer { ERR_clear_error() }
    let code = ERR_get_error()
    guard code != 0 else { return fallback }
    if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
