/// Why a slide tap has no action: the index names no slide of the card.
public struct SlideTapError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The index that was asked for (0-based).
  public var index: Int
  /// How many slides the card has (0 for a card that is not a carousel).
  public var slideCount: Int
  /// A sentence for the invalid-params reply.
  public var reason: String

  /// Builds an error.
  public init(index: Int, slideCount: Int, reason: String) {
    self.index = index
    self.slideCount = slideCount
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}
