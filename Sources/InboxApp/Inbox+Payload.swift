import InboxCore
import InboxPreview
import InboxStore
import JSON

/// A message offered to the store: its card as stored, and what the store did with it.
public struct IngestOutcome: Sendable, Hashable {
  public var card: Card
  public var outcome: InsertOutcome
  public var effects: Effects
}

/// One card drawn as InboxKit lays it out: the card, an HTML fragment in a themed wrapper, and the
/// stylesheet it needs (the same for every card).
public struct RenderedCard: Sendable, Hashable {
  public var card: Card
  public var html: String
  public var css: String
  public var effects: Effects
}

/// What to draw: a visible stored message, or a payload resolved without storing it.
public enum RenderSource: Sendable, Hashable {
  case stored(id: String)
  case payload(JSONValue, context: PayloadContext)
}

/// How to read a payload that is not stored: the id of a send-request object (which has none; nil:
/// derived from the payload) and the send time of a push or `send_date: "now"` request, also the
/// base of `inbox_days` (nil: the inbox's clock).
public struct PayloadContext: Sendable, Hashable {
  public var id: String?
  public var now: Int64?

  public init(id: String? = nil, now: Int64? = nil) {
    self.id = id
    self.now = now
  }
}

extension Inbox {
  /// Adds a message from a push payload, a send-request notification object or a backend inbox
  /// message, committed when this returns. Not an inbox message, or one past `messageLimit`:
  /// `IngestError`, nothing stored.
  public func ingest(payload: JSONValue, id: String? = nil) throws -> IngestOutcome {
    let now = clock.now
    var (message, warnings) = try Engine.ingest(payload: payload, context: IngestContext(id: id, now: now))
    let text = message.raw.jsonString
    guard messageLimit.admits(text.utf8.count) else {
      throw IngestError.tooLarge(size: text.utf8.count, limit: messageLimit)
    }
    let outcome = try store.insert(message, pinned: message.isPinned, now: now)
    var effects = Effects(warnings: warnings)
    switch outcome {
    case .added: effects.record(FeedChange(.ingested, added: [message.id]))
    case .updated: effects.record(FeedChange(.ingested, updated: [message.id]))
    case .dismissed, .expired: break
    }
    if outcome == .added || outcome == .updated { cache.remember(message, payload: text) }
    // An update keeps the local state and never lowers the status: the card shows what is stored.
    let stored = outcome == .added ? nil : try store.message(id: message.id)
    if let stored { message.status = stored.status }
    let (card, resolverWarnings) = Resolver.resolve(message, attributes: attributes, state: stored?.localState)
    effects.warnings += resolverWarnings
    return IngestOutcome(card: card, outcome: outcome, effects: effects)
  }

  /// Resolves a payload into a card without storing anything; `attributes` apply over those in force
  /// for this call only. With `perPlatform`, a send request that names `platforms` also gets
  /// `platforms: [{platform, card}]`, its card on each (`PlatformVerdicts`; a card's `degraded` says why
  /// it is not what was asked for there).
  public func resolve(
    payload: JSONValue, context: PayloadContext = PayloadContext(), attributes partial: JSONValue? = nil,
    perPlatform: Bool = false
  ) throws -> CardResult {
    let attributes = try attributes(merging: partial)
    let context = IngestContext(id: context.id, now: context.now ?? clock.now)
    let resolution = try Engine.resolve(payload: payload, context: context, attributes: attributes)
    var json = resolution.card.json
    if perPlatform, resolution.message.platforms?.isEmpty == false {
      let verdicts = PlatformVerdicts.hosts(for: resolution.message, attributes: attributes).map { host in
        let card = Resolver.resolve(resolution.message, attributes: host.attributes).card
        return ["platform": .string(host.platform?.name ?? ""), "card": card.json] as JSONValue
      }
      var object = json.objectValue ?? [:]
      object["platforms"] = .array(verdicts)
      json = .object(object)
    }
    return CardResult(card: resolution.card, json: json, effects: Effects(warnings: resolution.warnings))
  }

  /// Why `payload` becomes its card (`message.explain`): `{card, reasons}`, storing nothing.
  public func explain(
    payload: JSONValue, context: PayloadContext = PayloadContext(), attributes partial: JSONValue? = nil
  )
    throws -> CardResult
  {
    let attributes = try attributes(merging: partial)
    let context = IngestContext(id: context.id, now: context.now ?? clock.now)
    let (resolution, reasons) = try Engine.explain(payload: payload, context: context, attributes: attributes)
    let json: JSONValue = ["card": resolution.card.json, "reasons": .array(reasons.map(\.json))]
    return CardResult(card: resolution.card, json: json, effects: Effects(warnings: resolution.warnings))
  }

  /// Draws one card as InboxKit lays it out, under the attributes in force with `partial` over them.
  public func render(
    _ source: RenderSource, attributes partial: JSONValue? = nil, theme: PreviewPage.Theme = .light
  ) throws -> RenderedCard {
    let attributes = try attributes(merging: partial)
    let resolved: CardResult
    switch source {
    case .payload(let payload, let context):
      resolved = try resolve(payload: payload, context: context, attributes: partial)
    case .stored(let id):
      var effects = Effects()
      let found = try self.resolved(visibleMessage(id, now: clock.now), &effects, attributes: attributes)
      resolved = CardResult(card: found.card, json: found.json, effects: effects)
    }
    let entry = PreviewEntry(card: resolved.card, warnings: resolved.effects.warnings)
    return RenderedCard(
      card: resolved.card, html: PreviewPage.fragment(entry, theme: theme, swipeToDelete: attributes.swipeToDelete),
      css: PreviewStyle.css,
      effects: resolved.effects)
  }
}
