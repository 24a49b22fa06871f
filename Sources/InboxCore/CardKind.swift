/// The six card layouts of InboxKit, so kinds are checked by the compiler instead of compared as strings.
///
/// The raw value is the wire spelling used by `displayType`, `forceCellKind` and the Card's `kind`
/// (docs/engine.md#card-kinds).
public enum CardKind: String, Sendable, Hashable, CaseIterable {
  /// Full-width image, no text; needs an image.
  case banner
  /// Image on top, title and body below; needs image, title and body.
  case captioned
  /// Coloured initial avatar, title and body; needs nothing, the last fallback.
  case classic
  /// Swipeable gallery; needs title, body and 1-5 slides with an image.
  case carousel
  /// Poster with a play button; needs an http(s) video url.
  case video
  /// "Add to Apple Wallet" card; needs an http(s) pass url and a host that can add passes.
  case wallet

  /// Reads a kind case-insensitively (`"Carousel"`, `" video "`), so marketers' spellings still match.
  ///
  /// Returns nil for anything that is not one of the six names.
  public init?(lenient text: String) {
    let folded = text.trimmingWhitespace().lowercased()
    guard let kind = CardKind(rawValue: folded) else { return nil }
    self = kind
  }

  /// Whether inline buttons render on this kind (docs/engine.md#buttons: captioned and classic only).
  public var showsButtons: Bool { self == .captioned || self == .classic }

  /// The six names joined for error messages: "banner, captioned, classic, carousel, video, wallet".
  static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
