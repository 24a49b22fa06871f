import InboxCore
import JSON
import Testing

/// Every place a card hands a URL to the host, against every denied scheme, by default and allowed.
struct SchemeCase: CustomTestStringConvertible, Sendable {
  /// Where the URL goes in a backend message's action params.
  enum Place: String, CaseIterable, Sendable {
    case rowLink, buttonURL, slideURL, slideImage, image
  }

  var place: Place
  var url: String
  /// The scheme the guard must name, or nil when the URL must reach the host.
  var denied: String?

  var testDescription: String { "\(place.rawValue) \(url.debugDescription)" }

  static let urls: [(String, String?)] = [
    ("javascript:alert(1)", "javascript"),
    ("JavaScript:alert(document.cookie)", "javascript"),
    (" java\tscript:alert(1)", "javascript"),
    ("vbscript:msgbox(1)", "vbscript"),
    ("data:text/html;base64,PHNjcmlwdD4=", "data"),
    ("file:///etc/passwd", "file"),
    ("FILE:///C:/Windows/win.ini", "file"),
    ("intent://scan/#Intent;scheme=zxing;end", "intent"),
    ("https://example.com/a", nil),
    ("myapp://orders/1", nil),
    ("mailto:a@example.com", nil),
  ]

  /// A tab inside a URL makes it unparseable, so only the row link (taken as written) can carry it.
  static let all: [SchemeCase] = Place.allCases.flatMap { place in
    urls.filter { place == .rowLink || !$0.0.contains("\t") }.map { SchemeCase(place: place, url: $0.0, denied: $0.1) }
  }

  /// A carousel (for slides) or captioned card (for the rest) carrying `url` at `place`.
  var payload: JSONValue {
    var params: JSONObject = ["image": "https://cdn.example.com/hero.png"]
    switch place {
    case .rowLink: params["l"] = .string(url)
    case .buttonURL: params["buttons"] = [["title": "Go", "url": .string(url)]]
    case .image: params["image"] = .string(url)
    case .slideURL, .slideImage:
      params["displayType"] = "carousel"
      let image = place == .slideImage ? url : "https://cdn.example.com/1.png"
      var slide: JSONObject = ["image": .string(image)]
      if place == .slideURL { slide["url"] = .string(url) }
      params["carousel"] = [.object(slide), ["image": "https://cdn.example.com/2.png"]]
    }
    return [
      "inbox_id": "m1", "order": "1", "rt": 1, "status": 1, "title": "T", "text": "B",
      "action_params": .object(params),
    ]
  }

  /// The URL as the card hands it to the host at `place`, or nil when it is not there.
  func handed(_ card: Card) -> String? {
    switch place {
    case .rowLink:
      switch card.rowAction {
      case .openURL(let url), .deeplink(let url): return url
      default: return nil
      }
    case .buttonURL:
      guard case .openURL(let url)? = card.buttons.first?.action else { return nil }
      return url
    case .image: return card.image
    case .slideURL: return card.slides.first?.url
    case .slideImage: return card.slides.first { !$0.image.hasPrefix("https://cdn.example.com/2") }?.image
    }
  }
}

struct SchemeGuardTests {
  @Test(arguments: SchemeCase.all)
  func deniedByDefault(_ row: SchemeCase) throws {
    let resolution = try Engine.resolve(payload: row.payload, context: IngestContext(now: 0))
    let warnings = resolution.warnings.filter { $0.code == .unsafeScheme }
    if let scheme = row.denied {
      #expect(row.handed(resolution.card) == nil)
      #expect(warnings.count == 1)
      #expect(warnings.first?.reason.contains("\(scheme): scheme") == true)
    } else {
      #expect(row.handed(resolution.card) != nil)
      #expect(warnings.isEmpty)
    }
  }

  @Test(arguments: SchemeCase.all.filter { $0.denied != nil })
  func allowedByName(_ row: SchemeCase) throws {
    var attributes = Attributes()
    attributes.allowedSchemes = [try #require(row.denied)]
    let resolution = try Engine.resolve(payload: row.payload, context: IngestContext(now: 0), attributes: attributes)
    #expect(row.handed(resolution.card) != nil)
    #expect(!resolution.warnings.contains { $0.code == .unsafeScheme })
  }

  @Test func anotherAllowedSchemeDoesNotOpenTheRest() throws {
    var attributes = Attributes()
    attributes.allowedSchemes = ["file"]
    let row = SchemeCase(place: .rowLink, url: "javascript:alert(1)", denied: "javascript")
    let resolution = try Engine.resolve(payload: row.payload, context: IngestContext(now: 0), attributes: attributes)
    #expect(resolution.card.rowAction == RowAction.none)
  }

  @Test func attributesReadAndWriteAllowedSchemes() throws {
    let attributes = try Attributes(json: ["allowedSchemes": ["File", "intent"]])
    #expect(attributes.allowedSchemes == ["file", "intent"])
    #expect(attributes.json["allowedSchemes"] == ["file", "intent"])
    #expect(try attributes.merging(["allowedSchemes": .null]).allowedSchemes.isEmpty)
    #expect(throws: AttributesError.self) { try Attributes(json: ["allowedSchemes": ["file:"]]) }
    #expect(throws: AttributesError.self) { try Attributes(json: ["allowedSchemes": "file"]) }
  }
}
