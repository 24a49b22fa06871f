import InboxApp
import InboxCore
import InboxPreview

/// Rule `labelFallback`, a note: a word a card is drawn with in its verdict's locale that is English
/// only because the product page of that language gives no wording for it (`CardWords`). Said for
/// a verdict in a language with a table of its own (`--locale`, each language of `--every-locale`).
enum LabelFallbacks {
  static let rule = "labelFallback"

  /// One sentence per word of `report`'s card that falls back to English.
  static func messages(_ report: PayloadLint.Report) -> [String] {
    guard let card = report.card, let locale = report.locale, card.labels != .english else { return [] }
    return DrawnWords.of(card).filter(card.labels.fallsBack).map { word in
      "[\(locale)] \"\(CardWords.english[word])\" (\(word.rawValue)) is drawn in English: the \(card.labels.language) "
        + "page gives no wording for it"
    }
  }
}
