import InboxCore

/// One row of the preview: the resolved card, or why a payload is no card, and what to say beside it.
public struct PreviewEntry: Sendable {
  /// The card as the resolver made it; nil when the payload is not an inbox message.
  public var card: Card?
  /// Why the payload is not an inbox message.
  public var refusal: String?
  /// The engine's warnings for this card; a `degraded` one is drawn as the card's note.
  public var warnings: [Warning]
  /// Other problems to show beside the card (schema breaks found by lint), one sentence each.
  public var problems: [String]
  /// Where the payload came from (`offer.json request.notifications[0]`), nil for a stored message.
  public var label: String?

  /// An entry for a card.
  public init(card: Card, warnings: [Warning] = [], problems: [String] = [], label: String? = nil) {
    self.card = card
    self.warnings = warnings
    self.problems = problems
    self.label = label
  }

  /// An entry for a payload that is not an inbox message.
  public init(refusal: String, problems: [String] = [], label: String? = nil) {
    self.refusal = refusal
    self.warnings = []
    self.problems = problems
    self.label = label
  }
}
