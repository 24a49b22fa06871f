import JSON

/// One resolved inbox row: what the host renders, decided once by the `Resolver`.
///
/// Cards are values; the store can rebuild one at any time from the message, the attributes and the local
/// state. See `json` for the wire shape (docs/protocol.md#card).
public struct Card: Sendable, Hashable {
  /// The layout-specific part of a card; the case is the kind that is rendered.
  public enum Content: Sendable, Hashable {
    /// Full-width image (the card's `image`).
    case banner
    /// Image, title and body.
    case captioned
    /// Avatar, title and body.
    case classic(Avatar)
    /// 1-5 slides.
    case carousel([CarouselSlide])
    /// A video descriptor.
    case video(VideoContent)
    /// A wallet pass.
    case wallet(WalletPass)

    /// The kind this content renders as.
    public var kind: CardKind {
      switch self {
      case .banner: return .banner
      case .captioned: return .captioned
      case .classic: return .classic
      case .carousel: return .carousel
      case .video: return .video
      case .wallet: return .wallet
      }
    }
  }

  /// The message id.
  public var id: String
  /// The kind asked for by `forceCellKind`, `displayType` or the heuristic.
  public var requestedKind: CardKind
  /// Set when `requestedKind` could not render and the card fell back to classic.
  public var degradation: Degradation?
  /// The title, nil when absent.
  public var title: String?
  /// The body, nil when absent.
  public var body: String?
  /// The image: the message's own, else `data.image`; nil when there is none.
  public var image: String?
  /// Send time, unix seconds.
  public var sentAt: Int64?
  /// Expiry, unix seconds.
  public var expiresAt: Int64?
  /// Read (backend status >= 2, or read/opened locally).
  public var read: Bool
  /// Action performed (backend status >= 3, or opened locally).
  public var actionPerformed: Bool
  /// Floats to the top of the feed.
  public var pinned: Bool
  /// Shown to the user: reported on screen by a host, or read (what was read was seen).
  public var seen = false
  /// Inline buttons; always empty unless the kind is captioned or classic.
  public var buttons: [InlineButton]
  /// The normalised custom data (`u`), nil when there is none.
  public var customData: JSONObject?
  /// What a row tap does.
  public var rowAction: RowAction
  /// The kind-specific fields.
  public var content: Content
  /// The VoiceOver labels, in the language of the host's locale.
  public var labels: CardWords = .english

  /// The kind that is rendered.
  public var kind: CardKind { content.kind }

  /// The carousel's slides; empty for other kinds.
  public var slides: [CarouselSlide] {
    if case .carousel(let slides) = content { return slides }
    return []
  }

  /// What the feed order looks at.
  public var sortKey: FeedSortKey { FeedSortKey(pinned: pinned, read: read, sentAt: sentAt, id: id) }

  /// The action of tapping slide `index` (0-based): the slide's own url (`openURL` for http(s),
  /// `deeplink` otherwise), or the message's row action when the slide has none (docs/engine.md#carousel-slides).
  ///
  /// Throws when the card has no such slide (including every card that is not a carousel).
  public func slideAction(index: Int) throws(SlideTapError) -> RowAction {
    try slideLink(index: index) ?? rowAction
  }

  /// The slide's own action, nil when the slide has no url (its tap is the row tap).
  ///
  /// Throws when the card has no such slide (including every card that is not a carousel).
  public func slideLink(index: Int) throws(SlideTapError) -> RowAction? {
    let slides = self.slides
    guard slides.indices.contains(index) else {
      let reason =
        slides.isEmpty
        ? "message \(id) is a \(kind.rawValue) card and has no slides"
        : "slide \(index) does not exist: message \(id) has \(slides.count) slides (0-\(slides.count - 1))"
      throw SlideTapError(index: index, slideCount: slides.count, reason: reason)
    }
    return slides[index].tapAction
  }
}
