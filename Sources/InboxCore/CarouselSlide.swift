import JSON

/// One image of a carousel card, validated once so the card never shows an empty slide.
///
/// Wire (`data.carousel`, through the one lookup: root, `u` object or string, `userdata`):
/// ```
/// {"carousel": [
///   {"image": "https://cdn.example.com/inbox/1.jpg", "title": "New in", "url": "myapp://product/1"},
///   {"image": "https://cdn.example.com/inbox/3.jpg"}
/// ]}
/// ```
/// `image` is required (a parseable URL); `title` (caption) and `url` (tap target, a parseable URL) are
/// optional (docs/engine.md#carousel-slides).
public struct CarouselSlide: Sendable, Hashable {
  /// At most this many slides are kept; later usable ones are dropped with a warning.
  public static let maximumCount = 5

  /// The slide's image URL.
  public var image: String
  /// The caption overlaid on the image, nil when absent or blank.
  public var title: String?
  /// Where a tap goes, nil to fall back to the message's row action.
  public var url: String?

  /// Builds a slide from already-validated fields.
  public init(image: String, title: String? = nil, url: String? = nil) {
    self.image = image
    self.title = title
    self.url = url
  }

  /// The VoiceOver label: the caption, or `labels.slide` ("Slide") when there is none (InboxKit
  /// accessibility).
  public func accessibilityLabel(_ labels: CardWords = .english) -> String { title ?? labels.slide }

  /// The slide's own tap action: `openURL` for an http(s) url, `deeplink` for any other; nil without url.
  public var tapAction: RowAction? { url.map(RowAction.link) }

  // MARK: - Decoding

  /// Decodes `data.carousel` into 1-5 usable slides, or the reason the carousel cannot render.
  ///
  /// Rules: a non-object item or one without a parseable `image` is dropped and does not use one of the
  /// 5 places; usable slides past the fifth are dropped; a `url` that is not a parseable URL is left out
  /// (the slide falls back to the row action). Every drop adds a warning.
  static func decodeAll(
    _ data: CustomData, schemes: SchemeGuard, diagnostics: inout Diagnostics
  ) -> Outcome<[CarouselSlide]> {
    guard let value = data.value(for: "carousel"), value != .null else {
      return .fail("carousel needs data.carousel with 1-5 slides; data.carousel is missing")
    }
    guard let items = value.arrayValue else {
      return .fail("data.carousel is \(InboxMessage.describe(value)), not an array of slides")
    }
    var kept: [CarouselSlide] = []
    // Numbered from 0 in every message, as the card's buttons and slides are (`button.tap`, the hover).
    for (number, item) in items.enumerated() {
      let place = ["carousel", String(number)]
      guard let slide = item.objectValue else {
        diagnostics.warn(
          .slideDropped, "slide \(number) is \(InboxMessage.describe(item)), not an object; dropped", at: place)
        continue
      }
      guard let imageValue = slide["image"], imageValue != .null, imageValue.stringValue?.isBlank != true else {
        diagnostics.warn(
          .slideDropped, "slide \(number) has no image; dropped (it does not use one of the 5 places)", at: place)
        continue
      }
      guard let image = ParseableURL(imageValue, policy: .anyScheme) else {
        diagnostics.warn(
          .slideDropped,
          "slide \(number) image \(InboxMessage.describe(imageValue)) is not a parseable URL; dropped "
            + "(it does not use one of the 5 places)", at: place + ["image"])
        continue
      }
      if let scheme = schemes.deniedScheme(image.string) {
        let consequence = "the slide is dropped (it does not use one of the 5 places)"
        diagnostics.warn(
          .unsafeScheme, schemes.refusal("slide \(number) image", scheme: scheme, then: consequence),
          at: place + ["image"])
        continue
      }
      guard kept.count < maximumCount else {
        diagnostics.warn(.slideDropped, "slide \(number) is past the 5th usable slide; dropped", at: place)
        continue
      }
      var url: String?
      if let urlValue = slide["url"], urlValue != .null, urlValue.stringValue?.isBlank != true {
        if let parsed = ParseableURL(urlValue, policy: .anyScheme), let scheme = schemes.deniedScheme(parsed.string) {
          let consequence = "left out, a tap opens the message's row action"
          diagnostics.warn(
            .unsafeScheme, schemes.refusal("slide \(number) url", scheme: scheme, then: consequence),
            at: place + ["url"])
        } else if let parsed = ParseableURL(urlValue, policy: .anyScheme) {
          url = parsed.string
        } else {
          diagnostics.warn(
            .invalidField,
            "slide \(number) url \(InboxMessage.describe(urlValue)) is not a parseable URL (it needs a scheme); "
              + "left out, a tap opens the message's row action", at: place + ["url"])
        }
      }
      kept.append(CarouselSlide(image: image.string, title: Lenient.text(slide["title"]), url: url))
    }
    guard !kept.isEmpty else {
      if items.isEmpty { return .fail("carousel has no usable slide: data.carousel is empty") }
      return .fail("carousel has no usable slide: none of the \(items.count) slides has a usable image")
    }
    return .ok(kept)
  }
}
