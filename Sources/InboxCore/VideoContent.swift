import JSON

/// The descriptor of a video card: a stream or file to play and an optional poster.
///
/// Wire (`data.video`, through the one lookup):
/// ```
/// {"video": {"url": "https://cdn.example.com/inbox/clip.mp4", "poster": "https://cdn.example.com/poster.jpg"}}
/// {"u": "{\"video\":{\"url\":\"https://cdn.example.com/inbox/clip.mp4\"}}"}
/// ```
/// Both URLs must be http or https (`ParseableURL.Policy.httpOnly`): the player and the image loader would
/// otherwise read `file://` paths from the device or speak other protocols on the payload's say-so.
public struct VideoContent: Sendable, Hashable {
  /// The http(s) URL to play.
  public var url: String
  /// The http(s) preview image, nil when absent or invalid.
  public var poster: String?

  /// Builds a descriptor from already-validated URLs.
  public init(url: String, poster: String? = nil) {
    self.url = url
    self.poster = poster
  }

  /// The stable UI-test identifier of the poster button.
  public static let accessibilityIdentifier = "inboxkit.video.play"

  /// The poster's accessibility traits, as InboxKit sets them: a button that starts a media
  /// session, so VoiceOver announces a media control rather than an image.
  public static let accessibilityTraits = ["button", "startsMediaSession"]

  /// InboxKit's player plays with sound whatever the ringer (Ring/Silent) switch says: on iOS, an
  /// audio session of the `playback` category. Always true; said so that a host knows to do the same.
  public static let playsWhenSilenced = true

  /// The card's `video` member and `video.play`'s descriptor: `{url, poster|null, playsWhenSilenced,
  /// accessibilityLabel, accessibilityTraits, accessibilityIdentifier}`, the label in the language of
  /// `labels`.
  public func json(labels: CardWords) -> JSONValue {
    [
      "url": .string(url), "poster": poster.map(JSONValue.string) ?? .null,
      "playsWhenSilenced": .bool(Self.playsWhenSilenced),
      "accessibilityLabel": .string(labels.playVideo),
      "accessibilityTraits": .array(Self.accessibilityTraits.map(JSONValue.string)),
      "accessibilityIdentifier": .string(Self.accessibilityIdentifier),
    ]
  }

  /// Decodes `data.video`, or the reason the video card cannot render; a bad poster only warns.
  static func decode(_ data: CustomData, diagnostics: inout Diagnostics) -> Outcome<VideoContent> {
    guard let value = data.value(for: "video"), value != .null else {
      return .fail("video needs data.video, an object with an http(s) url; data.video is missing")
    }
    guard let descriptor = value.objectValue else {
      return .fail("data.video is \(InboxMessage.describe(value)), not an object with an http(s) url")
    }
    guard let urlValue = descriptor["url"], urlValue != .null, urlValue.stringValue?.isBlank != true else {
      return .fail("data.video.url is missing")
    }
    guard let url = ParseableURL(urlValue, policy: .httpOnly) else {
      return .fail("data.video.url \(InboxMessage.describe(urlValue)) is not an http or https URL")
    }
    var poster: String?
    if let posterValue = descriptor["poster"], posterValue != .null, posterValue.stringValue?.isBlank != true {
      if let parsed = ParseableURL(posterValue, policy: .httpOnly) {
        poster = parsed.string
      } else {
        diagnostics.warn(
          .invalidField,
          "data.video.poster \(InboxMessage.describe(posterValue)) is not an http or https URL; shown without poster")
      }
    }
    return .ok(VideoContent(url: url.string, poster: poster))
  }
}
