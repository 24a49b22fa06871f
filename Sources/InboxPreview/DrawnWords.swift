import InboxCore

/// The words of `CardWords` a card is drawn with, in the order the cell draws them: what
/// `inbox-rpc lint` checks against the locale's table.
public enum DrawnWords {
  /// The words `CardHTML` draws for `card` (with the delete action when `swipeToDelete` is on).
  public static func of(_ card: Card, swipeToDelete: Bool = true) -> [CardWords.Word] {
    var words: [CardWords.Word] = []
    if !card.read { words.append(.unread) }
    if card.pinned { words.append(.pinned) }
    switch card.content {
    case .banner:
      if card.image != nil, card.title == nil, card.body == nil { words.append(.bannerImage) }
    case .captioned:
      if card.image != nil, card.title == nil { words.append(.image) }
    case .classic: break
    case .carousel(let slides):
      words.append(.slides)
      if slides.contains(where: { $0.title == nil }) { words.append(.slide) }
    case .video(let video):
      if video.poster != nil { words.append(.videoPoster) }
      words.append(.playVideo)
    case .wallet(let pass):
      if pass.image != nil { words.append(.passImage) }
      words.append(.addToAppleWallet)
    }
    if swipeToDelete { words.append(.delete) }
    return words
  }
}
