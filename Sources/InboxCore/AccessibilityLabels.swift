/// The VoiceOver labels a card carries, in the language of the host's `locale`: the words the
/// product pages give for InboxKit in English, German, Spanish, Portuguese, Chinese and Russian
/// (the Russian page keeps "Play video" and "Slide" in English), English for any other language.
///
/// - `playVideo`: a video card's poster button.
/// - `slide`: a carousel slide without a caption (a captioned slide is labelled by its caption).
/// - `position(_:of:)`: what the page indicator announces.
public struct AccessibilityLabels: Sendable, Hashable {
  /// The primary language subtag these labels are in (`en`, `de`, ...).
  public var language: String
  public var playVideo: String
  public var slide: String
  /// The page indicator's words around the numbers: `prefix + n + middle + total + suffix`.
  var positionParts: (prefix: String, middle: String, suffix: String)

  /// "2 of 3" for slide index 1 (0-based) of 3, in these labels' language.
  public func position(index: Int, count: Int) -> String {
    positionParts.prefix + "\(index + 1)" + positionParts.middle + "\(count)" + positionParts.suffix
  }

  public static let english = AccessibilityLabels(
    language: "en", playVideo: "Play video", slide: "Slide", positionParts: ("", " of ", ""))

  /// Every language with labels of its own, English first.
  public static let all: [AccessibilityLabels] = [
    english,
    AccessibilityLabels(language: "de", playVideo: "Video abspielen", slide: "Folie", positionParts: ("", " von ", "")),
    AccessibilityLabels(
      language: "es", playVideo: "Reproducir video", slide: "Diapositiva", positionParts: ("", " de ", "")),
    AccessibilityLabels(language: "pt", playVideo: "Reproduzir vídeo", slide: "Slide", positionParts: ("", " de ", "")),
    AccessibilityLabels(language: "zh", playVideo: "播放视频", slide: "幻灯片", positionParts: ("第 ", " 页，共 ", " 页")),
    AccessibilityLabels(language: "ru", playVideo: "Play video", slide: "Slide", positionParts: ("", " из ", "")),
  ]

  /// The labels for a BCP 47 `locale` (by its primary language: `de-AT` → German), English when
  /// the locale is nil or has none of its own.
  public static func forLocale(_ locale: String?) -> AccessibilityLabels {
    guard let language = locale.flatMap(LanguageTag.init)?.language else { return english }
    return all.first { $0.language == language } ?? english
  }

  public static func == (lhs: AccessibilityLabels, rhs: AccessibilityLabels) -> Bool { lhs.language == rhs.language }

  public func hash(into hasher: inout Hasher) { hasher.combine(language) }
}
