import InboxCore
import Testing

/// The table of the words a card draws: the product page's wording per language where the page gives
/// it, English where it does not, and which words are English only for want of the page's.
@Suite struct CardWordsTests {
  /// As the German, Spanish, Portuguese, Chinese and Russian pages word them.
  static let pages: [(locale: String, playVideo: String, slide: String, wallet: String, position: String)] = [
    ("de-AT", "Video abspielen", "Folie", "Zu Apple Wallet hinzufügen", "2 von 3"),
    ("es", "Reproducir video", "Diapositiva", "Añadir a Apple Wallet", "2 de 3"),
    ("pt-BR", "Reproduzir vídeo", "Slide", "Adicionar à Carteira da Apple", "2 de 3"),
    ("zh-Hans", "播放视频", "幻灯片", "添加到 Apple Wallet", "第 2 页，共 3 页"),
    ("ru", "Play video", "Slide", "Add to Apple Wallet", "2 из 3"),
  ]

  @Test(arguments: pages)
  func eachPagesWording(_ page: (locale: String, playVideo: String, slide: String, wallet: String, position: String)) {
    let words = CardWords.forLocale(page.locale)
    #expect(words[.playVideo] == page.playVideo && words[.slide] == page.slide)
    #expect(words[.addToAppleWallet] == page.wallet)
    #expect(words.position(index: 1, count: 3) == page.position)
    // The Russian page's own wording is English for these: that is the page's, not a fallback.
    #expect(!words.fallsBack(.playVideo) && !words.fallsBack(.addToAppleWallet))
  }

  @Test func wordsNoPageGivesAreEnglishAndSaidToFallBack() {
    for words in CardWords.all where words.language != "en" {
      for word in [CardWords.Word.unread, .pinned, .bannerImage] {
        #expect(words.fallsBack(word) && words[word] == CardWords.english[word], "\(words.language) \(word)")
      }
    }
    let russian = CardWords.forLocale("ru")
    #expect(russian.fallsBack(.delete) && russian[.delete] == "Delete")
    #expect(russian.fallsBack(.refresh) && russian.fallsBack(.videoPoster))
    let german = CardWords.forLocale("de")
    #expect(german[.delete] == "Löschen" && german[.refresh] == "Aktualisieren" && !german.fallsBack(.delete))
  }

  @Test func englishHasEveryWordAndNoFallback() {
    for word in CardWords.Word.allCases {
      #expect(!CardWords.english.fallsBack(word) && !CardWords.english[word].isEmpty, "\(word)")
    }
  }

  @Test func anotherLanguageOrNoneIsEnglish() {
    #expect(CardWords.forLocale("fr") == .english && CardWords.forLocale(nil) == .english)
    #expect(CardWords.forLocale("fr")[.addToAppleWallet] == "Add to Apple Wallet")
  }
}
