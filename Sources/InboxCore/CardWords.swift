/// Every word a card draws or announces, in the language of the host's `locale`: one table per
/// language, holding the wording the product page gives for InboxKit in German, Spanish, Portuguese,
/// Chinese and Russian (the Russian page keeps "Play video", "Slide" and "Add to Apple Wallet" in
/// English), English for a word a page does not give and for any other language.
///
/// `fallsBack(_:)` says which words of a language are English only because its page gives none;
/// `inbox-rpc lint` names them (rule `labelFallback`).
public struct CardWords: Sendable, Hashable {
  /// A word a card draws or announces.
  public enum Word: String, Sendable, CaseIterable {
    /// A video card's poster button.
    case playVideo
    /// A carousel slide without a caption (a captioned slide is labelled by its caption).
    case slide
    /// The carousel strip as a whole.
    case slides
    /// The Apple Wallet button.
    case addToAppleWallet
    /// The unread dot.
    case unread
    /// The pin.
    case pinned
    /// A banner's image when the card has neither title nor body.
    case bannerImage
    /// A captioned card's image when the card has no title.
    case image
    /// A video card's poster image.
    case videoPoster
    /// A wallet card's hero image.
    case passImage
    /// The swipe-to-delete action (`swipeToDelete`).
    case delete
    /// The pull-to-refresh control (`pullToRefresh`).
    case refresh
  }

  /// The primary language subtag these words are in (`en`, `de`, ...).
  public var language: String
  /// The words this language's page gives; the others are English.
  var given: [Word: String]
  /// The page indicator's words around the numbers: `prefix + n + middle + total + suffix`.
  var positionParts: (prefix: String, middle: String, suffix: String)

  /// The word in this language, English when the page gives none.
  public subscript(_ word: Word) -> String { given[word] ?? Self.englishWords[word]! }

  /// Whether `word` is English here only because this language's page gives none.
  public func fallsBack(_ word: Word) -> Bool { given[word] == nil }

  public var playVideo: String { self[.playVideo] }
  public var slide: String { self[.slide] }

  /// "2 of 3" for slide index 1 (0-based) of 3, in this language.
  public func position(index: Int, count: Int) -> String {
    positionParts.prefix + "\(index + 1)" + positionParts.middle + "\(count)" + positionParts.suffix
  }

  private static let englishWords: [Word: String] = [
    .playVideo: "Play video", .slide: "Slide", .slides: "Slides", .addToAppleWallet: "Add to Apple Wallet",
    .unread: "Unread", .pinned: "Pinned", .bannerImage: "Banner image", .image: "Image",
    .videoPoster: "Video poster", .passImage: "Pass image", .delete: "Delete", .refresh: "Refresh",
  ]

  public static let english = CardWords(language: "en", given: englishWords, positionParts: ("", " of ", ""))

  /// Every language with a table of its own, English first. A word is in a table only when the
  /// page gives it (the hero image is the page's "Hero-Image", delete and refresh the verbs of its
  /// "swipe to delete" and "pull to refresh"); the Russian page's inflected forms are not labels.
  public static let all: [CardWords] = [
    english,
    CardWords(
      language: "de",
      given: [
        .playVideo: "Video abspielen", .slide: "Folie", .slides: "Folien",
        .addToAppleWallet: "Zu Apple Wallet hinzufügen", .image: "Bild", .videoPoster: "Video-Poster",
        .passImage: "Hero-Image", .delete: "Löschen", .refresh: "Aktualisieren",
      ], positionParts: ("", " von ", "")),
    CardWords(
      language: "es",
      given: [
        .playVideo: "Reproducir video", .slide: "Diapositiva", .slides: "Diapositivas",
        .addToAppleWallet: "Añadir a Apple Wallet", .image: "Imagen", .videoPoster: "Póster de video",
        .passImage: "Imagen principal", .delete: "Eliminar", .refresh: "Actualizar",
      ], positionParts: ("", " de ", "")),
    CardWords(
      language: "pt",
      given: [
        .playVideo: "Reproduzir vídeo", .slide: "Slide", .slides: "Slides",
        .addToAppleWallet: "Adicionar à Carteira da Apple", .image: "Imagem", .videoPoster: "Pôster do vídeo",
        .passImage: "Imagem de herói", .delete: "Excluir", .refresh: "Atualizar",
      ], positionParts: ("", " de ", "")),
    CardWords(
      language: "zh",
      given: [
        .playVideo: "播放视频", .slide: "幻灯片", .slides: "幻灯片", .addToAppleWallet: "添加到 Apple Wallet",
        .image: "图片", .videoPoster: "视频海报", .passImage: "主图", .delete: "删除", .refresh: "刷新",
      ], positionParts: ("第 ", " 页，共 ", " 页")),
    CardWords(
      language: "ru",
      given: [
        .playVideo: "Play video", .slide: "Slide", .slides: "Слайды", .addToAppleWallet: "Add to Apple Wallet",
        .image: "Изображение", .passImage: "Изображение-герой",
      ], positionParts: ("", " из ", "")),
  ]

  /// The words for a BCP 47 `locale` (by its primary language: `de-AT` → German), English when
  /// the locale is nil or has no table of its own.
  public static func forLocale(_ locale: String?) -> CardWords {
    guard let language = locale.flatMap(LanguageTag.init)?.language else { return english }
    return all.first { $0.language == language } ?? english
  }

  public static func == (lhs: CardWords, rhs: CardWords) -> Bool { lhs.language == rhs.language }

  public func hash(into hasher: inout Hasher) { hasher.combine(language) }
}
