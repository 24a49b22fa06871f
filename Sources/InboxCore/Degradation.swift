import JSON

/// Why a card is `classic` although a richer kind was asked for, carried on the card itself (docs/engine.md#warnings).
///
/// JSON: `{"from": "video", "reason": "data.video.url \"file:///etc/passwd\" is not an http or https URL"}`.
public struct Degradation: Sendable, Hashable {
  /// The kind that was asked for.
  public var from: CardKind
  /// What was missing or malformed.
  public var reason: String

  /// Builds a degradation.
  public init(from: CardKind, reason: String) {
    self.from = from
    self.reason = reason
  }

  /// `{"from", "reason"}`.
  public var json: JSONValue { ["from": .string(from.rawValue), "reason": .string(reason)] }
}
