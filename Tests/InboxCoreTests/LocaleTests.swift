import InboxCore
import JSON
import Testing

/// A send request's texts written by language, picked by `attributes.locale`: the tag, its shorter
/// prefixes, the payload's default (en), then the first language; and the labels in six languages.
@Suite struct LocaleTests {
  static let notification: JSONValue = [
    "inbox_days": 7, "ios_title": ["en": "30% off", "de": "30% Rabatt", "pt-BR": "30% de desconto"],
    "content": ["en": "Today only", "de": "Nur heute", "pt-BR": "Só hoje"],
  ]

  private func card(_ payload: JSONValue = notification, locale: String?) throws -> Card {
    var attributes = Attributes(platform: "ios")
    attributes.locale = locale
    return try Engine.resolve(payload: payload, context: IngestContext(id: "l", now: 0), attributes: attributes).card
  }

  @Test(arguments: [
    ("de", "30% Rabatt", "Nur heute"), ("de-AT", "30% Rabatt", "Nur heute"), ("DE_at", "30% Rabatt", "Nur heute"),
    ("pt-BR", "30% de desconto", "Só hoje"), ("fr", "30% off", "Today only"), ("pt", "30% off", "Today only"),
  ])
  func picksTheLocaleThenItsPrefixesThenTheDefault(locale: String, title: String, body: String) throws {
    let found = try card(locale: locale)
    #expect(found.title == title && found.body == body)
  }

  @Test func withoutALocaleTheDefaultLanguage() throws {
    #expect(try card(locale: nil).title == "30% off")
  }

  @Test func withoutTheDefaultLanguageTheFirstWritten() throws {
    let payload: JSONValue = ["inbox_days": 7, "title": ["es": "Hola", "de": "Hallo"], "content": "x"]
    #expect(try card(payload, locale: "fr").title == "Hola")
    #expect(try card(payload, locale: "de-CH").title == "Hallo")
  }

  @Test func aPlainStringServesEveryLocale() throws {
    let payload: JSONValue = ["inbox_days": 7, "ios_title": "Hi", "content": ["de": "Nur heute"]]
    let found = try card(payload, locale: "de")
    #expect(found.title == "Hi" && found.body == "Nur heute")
  }

  @Test func localeIsAnAttribute() throws {
    let attributes = try Attributes(json: ["locale": "de-AT"])
    #expect(attributes.locale == "de-AT" && attributes.json["locale"] == "de-AT")
    #expect(throws: AttributesError.self) { try Attributes(json: ["locale": "not a tag!"]) }
    #expect(try attributes.merging(["locale": .null]).locale == nil)
  }

  static let video: JSONValue = [
    "inbox_days": 7, "ios_title": "T", "content": "B",
    "data": ["displayType": "video", "video": ["url": "https://cdn.example.com/v.mp4"]],
  ]
  static let carousel: JSONValue = [
    "inbox_days": 7, "ios_title": "T", "content": "B",
    "data": [
      "displayType": "carousel",
      "carousel": [
        ["image": "https://cdn.example.com/1.jpg"], ["image": "https://cdn.example.com/2.jpg", "title": "Neu"],
      ],
    ],
  ]

  /// The words of the product pages (the Russian page keeps the English labels), English for others.
  @Test(arguments: [
    ("en", "Play video", "Slide", "1 of 2"), ("de-AT", "Video abspielen", "Folie", "1 von 2"),
    ("es", "Reproducir video", "Diapositiva", "1 de 2"), ("pt-BR", "Reproduzir vídeo", "Slide", "1 de 2"),
    ("zh-Hans", "播放视频", "幻灯片", "第 1 页，共 2 页"), ("ru", "Play video", "Slide", "1 из 2"),
    ("fr", "Play video", "Slide", "1 of 2"),
  ])
  func labelsInTheLocalesLanguage(locale: String, play: String, slide: String, position: String) throws {
    #expect(try card(Self.video, locale: locale).json["video"]?["accessibilityLabel"] == .string(play))
    let slides = try card(Self.carousel, locale: locale).json["carousel"]?.arrayValue ?? []
    #expect(slides.count == 2)
    #expect(slides.first?["accessibilityLabel"] == .string(slide))
    #expect(slides.first?["position"] == .string(position))
    #expect(slides.last?["accessibilityLabel"] == "Neu")
  }
}

/// A send request's `platforms`: a card per platform, each resolved as that platform's host.
@Suite struct PlatformVerdictsTests {
  static let wallet: JSONValue = [
    "inbox_days": 7, "ios_title": "Your card", "content": "Add it", "platforms": [1, 3],
    "data": ["displayType": "wallet", "wallet": "https://passes.example.com/p.pkpass"],
  ]

  private func verdicts(_ payload: JSONValue, narrowedTo: String? = nil) throws -> [(String?, Card)] {
    let message = try Engine.ingest(payload: payload, context: IngestContext(id: "p", now: 0)).message
    return PlatformVerdicts.hosts(for: message, attributes: Attributes(), narrowedTo: narrowedTo).map {
      ($0.platform?.name, Resolver.resolve(message, attributes: $0.attributes).card)
    }
  }

  @Test func walletOnIOSClassicOnAndroid() throws {
    let found = try verdicts(Self.wallet)
    #expect(found.map(\.0) == ["ios", "android"])
    #expect(found[0].1.kind == .wallet && found[0].1.degradation == nil)
    #expect(found[1].1.kind == .classic && found[1].1.degradation?.reason.contains("\"android\"") == true)
  }

  @Test func narrowingKeepsTheNamedPlatform() throws {
    #expect(try verdicts(Self.wallet, narrowedTo: "android").map(\.0) == ["android"])
    #expect(try verdicts(Self.wallet, narrowedTo: "1").map(\.0) == ["ios"])
    // A platform the request does not name: one verdict for the host as given.
    #expect(try verdicts(Self.wallet, narrowedTo: "linux").map(\.0) == [nil])
  }

  @Test func noPlatformsIsOneVerdictForTheHost() throws {
    var payload = Self.wallet.objectValue!
    payload["platforms"] = nil
    let found = try verdicts(.object(payload))
    #expect(found.count == 1 && found[0].0 == nil && found[0].1.kind == .classic)
  }

  @Test func unknownCodesWarnAndAreSkipped() throws {
    var payload = Self.wallet.objectValue!
    payload["platforms"] = [14, 1, 1, "x"]
    let (message, warnings) = try Engine.ingest(payload: .object(payload), context: IngestContext(id: "p", now: 0))
    #expect(message.platforms?.map(\.code) == [1])
    #expect(warnings.filter { $0.code == .invalidField && $0.reason.hasPrefix("platforms[") }.count == 2)
  }
}
