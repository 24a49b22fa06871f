import Dispatch
import Posix

/// What one fetch leaves behind (the envelope with its parsed tree, the engine's reading of it),
/// freed on a background queue: a large inbox is hundreds of thousands of objects, and freeing them
/// on the syncing thread would hold up the reply to the sync, or to its cancel, by up to a second.
/// After a large one the freed memory goes back to the system, so a sync does not keep its peak.
enum ReplyRelease {
  /// Lists at least this long are large.
  static let largeCount = 4_096

  /// Takes the last references to `envelope` and `remote` (the caller keeps none) and frees them later.
  static func later(_ envelope: consuming BackendEnvelope?, _ remote: consuming RemoteInbox?) {
    let large = (remote?.messages.count ?? 0) >= largeCount || (envelope?.messageTexts?.count ?? 0) >= largeCount
    let held = Held(envelope: consume envelope, remote: consume remote)
    DispatchQueue.global(qos: .utility).async {
      held.empty()
      if large { Memory.returnFreed() }
    }
  }

  /// The values, emptied by the background queue alone, so it frees them whoever lets go first.
  private final class Held: @unchecked Sendable {
    private var envelope: BackendEnvelope?
    private var remote: RemoteInbox?

    init(envelope: BackendEnvelope?, remote: RemoteInbox?) {
      self.envelope = envelope
      self.remote = remote
    }

    func empty() {
      envelope = nil
      remote = nil
    }
  }
}
