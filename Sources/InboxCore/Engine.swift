import JSON

/// A payload read and resolved in one call: what `message.ingest` stores and `message.resolve` returns.
public struct Resolution: Sendable, Hashable {
  /// The card to return to the host.
  public var card: Card
  /// Every warning, ingest first then resolver, for the server to log and notify.
  public var warnings: [Warning]
  /// The message model, for the store.
  public var message: InboxMessage

  /// Builds a resolution.
  public init(card: Card, warnings: [Warning], message: InboxMessage) {
    self.card = card
    self.warnings = warnings
    self.message = message
  }
}

/// The entry points the server calls: ingest a payload, and resolve it into a card.
public enum Engine {
  /// Reads a payload of any of the three shapes into a message, with the warnings reading it caused.
  ///
  /// Throws `IngestError.notAnInboxMessage` when the payload is not an inbox message; nothing should be
  /// stored then (docs/engine.md#payload-shapes).
  public static func ingest(
    payload: JSONValue, context: IngestContext
  ) throws(IngestError) -> (message: InboxMessage, warnings: [Warning]) {
    var warnings: [Warning] = []
    let message = try InboxMessage.ingest(payload, context: context, warnings: &warnings)
    return (message, warnings)
  }

  /// Reads a payload and resolves it into a card under the host's attributes.
  public static func resolve(
    payload: JSONValue, context: IngestContext, attributes: Attributes = Attributes(), state: LocalState? = nil
  ) throws(IngestError) -> Resolution {
    let (message, ingestWarnings) = try ingest(payload: payload, context: context)
    let (card, warnings) = Resolver.resolve(message, attributes: attributes, state: state)
    return Resolution(card: card, warnings: ingestWarnings + warnings, message: message)
  }

  /// Resolves as `resolve` does, with the resolver's reasons (`Resolver.explain`).
  public static func explain(
    payload: JSONValue, context: IngestContext, attributes: Attributes = Attributes()
  ) throws(IngestError) -> (resolution: Resolution, reasons: [ResolverReason]) {
    let (message, ingestWarnings) = try ingest(payload: payload, context: context)
    let (card, warnings, reasons) = Resolver.explain(message, attributes: attributes)
    return (Resolution(card: card, warnings: ingestWarnings + warnings, message: message), reasons)
  }
}
