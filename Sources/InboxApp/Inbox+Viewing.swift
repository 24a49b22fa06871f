import InboxCore
import InboxStore
import JSON

/// What a `feed.seen` call did: the ids it marked seen and read, and the ids it named that are no
/// visible message.
public struct SeenOutcome: Sendable, Hashable {
  public var seen: [String] = []
  public var read: [String]
  public var unknown: [String]
  public var effects: Effects
}

/// A video play: the descriptor for the player, and the card after it (with its wire shape).
public struct PlayOutcome: Sendable, Hashable {
  public var video: VideoContent
  public var card: Card
  public var cardJSON: JSONValue
  public var effects: Effects
}

extension Inbox {
  /// The host's report of the rows on screen (`appeared`) and of those that left it (`disappeared`),
  /// one call per scroll stop or screen close. InboxKit's `automaticReadOnDisappear` (on by default)
  /// marks the unread rows that leave the screen read, pinned ones too, in one transaction with their
  /// statuses queued for the backend; off, nothing changes. A row on screen is not read by being
  /// seen. The engine keeps no screen state between calls, so servers sharing a store, and a
  /// restarted one, agree; ids that name no visible message are answered in `unknown`. Unread rows
  /// that appeared become seen (`seen` on the card, out of `unseen`), in the store alone: the
  /// backend has no such status (docs/engine.md#rows-seen).
  public func seen(appeared: [String], disappeared: [String]) throws -> SeenOutcome {
    let now = clock.now
    var unknown: [String] = []
    for id in Set(appeared + disappeared).sorted() where try store.visibleMessage(id: id, now: now) == nil {
      unknown.append(id)
    }
    var effects = Effects()
    let shown = Set(appeared).subtracting(unknown).sorted()
    let seen = shown.isEmpty ? [] : try store.markSeen(ids: shown, now: now)
    effects.record(FeedChange(.seen, updated: seen))
    guard attributes.automaticReadOnDisappear else {
      return SeenOutcome(seen: seen, read: [], unknown: unknown, effects: effects)
    }
    let leaving = Set(disappeared).subtracting(unknown).sorted()
    let read = leaving.isEmpty ? [] : try store.markRead(ids: leaving, now: now)
    effects.record(FeedChange(.read, updated: read))
    return SeenOutcome(seen: seen, read: read, unknown: unknown, effects: effects)
  }

  /// Every visible unseen message (that `customData` selects) becomes seen: the badge a host
  /// clears when the inbox opens. Nothing becomes read, nothing is sent to the backend.
  public func markAllSeen(customData: CustomDataFilter? = nil) throws -> (seen: [String], effects: Effects) {
    let seen = try store.markAllSeen(now: clock.now, customData: customData)
    var effects = Effects()
    effects.record(FeedChange(.seen, updated: seen))
    return (seen, effects)
  }

  /// The user played a video card's video: returns the player's descriptor (its url and poster
  /// passed the resolver's scheme rules) and marks the message read, as InboxKit does when its
  /// player opens (not opened: the row action did not run). Refused with
  /// `InboxError.wrongKind` when the card renders as another kind (a degraded video included).
  public func playVideo(id: String) throws -> PlayOutcome {
    let now = clock.now
    var effects = Effects()
    let card = try self.card(visibleMessage(id, now: now), &effects)
    guard case .video(let video) = card.content else { throw InboxError.wrongKind(card, expected: .video) }
    let found = try markRead(id, now: now, &effects)
    return PlayOutcome(video: video, card: found.card, cardJSON: found.json, effects: effects)
  }

  /// Marks the visible message `id` read, with its status queued for the backend, and returns its
  /// card after.
  func markRead(_ id: String, now: Int64, _ effects: inout Effects) throws -> CardCache.Found {
    let stored = try visibleMessage(id, now: now, marking: true) { edit in
      if try edit.markRead() { effects.record(FeedChange(.read, updated: [id])) }
    }
    return try resolved(stored, &effects)
  }
}

extension InboxError {
  /// `card` is not of the `expected` kind.
  static func wrongKind(_ card: Card, expected: CardKind) -> InboxError {
    .wrongKind(id: card.id, expected: expected, kind: card.kind.rawValue, degradation: card.degradation?.reason)
  }
}
