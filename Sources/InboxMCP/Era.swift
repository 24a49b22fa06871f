import JSONRPC
import Synchronization

/// Whether the host opened the connection with `initialize`, and at which revision: only then may
/// the server speak unasked (list changes, log messages outside a request). A stateless host hears
/// only what it asked for, in a request or on a `subscriptions/listen` stream.
final class Era: Sendable {
  private let negotiated = Mutex<String?>(nil)

  var isHandshake: Bool { negotiated.withLock { $0 != nil } }

  func markHandshake(_ revision: String = Revision.handshake[0]) { negotiated.withLock { $0 = revision } }

  /// The revision a request is answered in: the one its `_meta` names (the stateless revision),
  /// else the one `initialize` settled, else the newest served through `initialize`.
  func revision(of params: Params) -> String {
    Revision.requested(params) ?? negotiated.withLock { $0 } ?? Revision.handshake[0]
  }
}
