import Synchronization

/// Whether the host opened the connection with `initialize`: only then may the server speak
/// unasked (list changes, log messages outside a request). A stateless host hears only what it
/// asked for, in a request or on a `subscriptions/listen` stream.
final class Era: Sendable {
  private let handshake = Atomic<Bool>(false)

  var isHandshake: Bool { handshake.load(ordering: .acquiring) }

  func markHandshake() { handshake.store(true, ordering: .releasing) }
}
