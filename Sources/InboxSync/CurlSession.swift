internal import CCurl
import Synchronization

/// A libcurl transfer handle with the connections it keeps alive: the calls of a sync made one after
/// another reuse one connection (and one TLS session) instead of a handshake each. One caller at a time.
final class CurlSession: @unchecked Sendable {
  // Owned by whoever took the session from its pool; never shared between threads at once.
  let pointer: OpaquePointer

  private init(pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit { ccurl_session_free(pointer) }

  /// Loads libcurl (`library`, once per process: later calls give the first answer) and makes a
  /// session; the reason when libcurl is missing or unusable.
  static func make(library: String) -> Result<CurlSession, HTTPTransfer.Failure> {
    if let failure = ccurl_load(library) {
      return .failure(.transport(reason: "libcurl cannot be loaded: \(String(cString: failure))"))
    }
    guard let pointer = ccurl_session_new() else {
      return .failure(.transport(reason: "libcurl cannot make a transfer handle"))
    }
    return .success(CurlSession(pointer: pointer))
  }

  /// Sessions not in use, kept for the next call; made on first use, so a server that never syncs
  /// never loads libcurl.
  final class Pool: Sendable {
    let library: String
    private let idle = Mutex<[CurlSession]>([])
    /// More idle sessions than this are closed: calls rarely overlap.
    private static let limit = 2

    init(library: String) {
      self.library = library
    }

    /// Runs `body` with an idle session (or a new one) and keeps the session for the next call.
    func withSession<T>(_ body: (CurlSession) throws(HTTPTransfer.Failure) -> T) throws(HTTPTransfer.Failure) -> T {
      let session: CurlSession
      if let idle = idle.withLock({ $0.popLast() }) {
        session = idle
      } else {
        switch CurlSession.make(library: library) {
        case .success(let made): session = made
        case .failure(let failure): throw failure
        }
      }
      defer { idle.withLock { if $0.count < Self.limit { $0.append(session) } } }
      return try body(session)
    }
  }
}
