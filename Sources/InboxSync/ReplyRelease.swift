import Dispatch
import Posix

/// What one fetch leaves behind (the envelope, with the reply's text its list is read from), freed
/// on a background queue, so freeing it never holds up the reply to the sync or to its cancel.
/// After a large one the freed memory goes back to the system, so a sync does not keep its peak.
enum ReplyRelease {
  /// Lists at least this long are large.
  static let largeCount = 4_096

  /// Takes the last reference to `envelope` (the caller keeps none) and frees it later.
  static func later(_ envelope: consuming BackendEnvelope?) {
    let large = (envelope?.messageItems?.count ?? 0) >= largeCount
    let held = Held(envelope: consume envelope)
    DispatchQueue.global(qos: .utility).async {
      held.empty()
      if large { Memory.returnFreed() }
    }
  }

  /// The envelope, emptied by the background queue alone, so it is freed whoever lets go first.
  private final class Held: @unchecked Sendable {
    private var envelope: BackendEnvelope?

    init(envelope: BackendEnvelope?) { self.envelope = envelope }

    func empty() { envelope = nil }
  }
}
