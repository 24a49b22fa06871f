import JSON
import Testing

@testable import InboxCore

/// `Resolver.explain`: for each rule of docs/engine.md the resolver applies, a payload and the
/// reasons it gives, in order, each with the value read and where, ending in the card.
struct ResolverReasonTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var payload: JSONValue
    var attributes = Attributes()
    /// Texts the reasons must contain, in order (each `rule: words`).
    var expected: [(ResolverRule, String)]
    var testDescription: String { name }
  }

  static func notification(
    _ data: JSONValue = [:], title: JSONValue? = "T", body: JSONValue? = "B", image: String? = nil
  )
    -> JSONValue
  {
    var object: JSONObject = ["inbox_days": 7, "data": data]
    if let title { object["title"] = title }
    if let body { object["content"] = body }
    if let image { object["inbox_image"] = .string(image) }
    return .object(object)
  }

  static let forced: Attributes = {
    var attributes = Attributes()
    attributes.forceCellKind = .banner
    return attributes
  }()

  static let rows: [Row] = [
    Row(
      name: "image from inbox_image", payload: notification(image: "https://e.com/a.png"),
      expected: [(.images, #"read "https://e.com/a.png" from the message's image (inbox_image); the card's image"#)]),
    Row(
      name: "image from data.image", payload: notification(["image": "https://e.com/b.png"]),
      expected: [(.images, #"from data.image; the card's image"#)]),
    Row(
      name: "no image", payload: notification(), expected: [(.images, "nothing at inbox_image"), (.images, "no image")]),
    Row(
      name: "forceCellKind", payload: notification(), attributes: forced,
      expected: [(.cardKinds, #"read "banner" from attributes.forceCellKind; asks for banner"#)]),
    Row(
      name: "displayType", payload: notification(["displayType": "Video"]),
      expected: [(.cardKinds, #"read "Video" from displayType in the custom data; asks for video"#)]),
    Row(
      name: "unknown displayType", payload: notification(["displayType": "bannr"]),
      expected: [(.cardKinds, "names no kind"), (.cardKinds, "the heuristic: no image: classic")]),
    Row(
      name: "heuristic banner", payload: notification(title: nil, image: "https://e.com/a.png"),
      expected: [(.cardKinds, "the heuristic: an image and no title: banner")]),
    Row(
      name: "heuristic captioned", payload: notification(image: "https://e.com/a.png"),
      expected: [(.cardKinds, "read an image, a title, a body from the message (no displayType)")]),
    Row(
      name: "heuristic classic without body", payload: notification(body: nil, image: "https://e.com/a.png"),
      expected: [(.cardKinds, "an image and a title without a body: classic")]),
    Row(
      name: "required fields met", payload: notification(image: "https://e.com/a.png"),
      expected: [(.requiredFields, "captioned has what it needs")]),
    Row(
      name: "degraded", payload: notification(["displayType": "banner"]),
      expected: [
        (.requiredFields, "banner cannot be drawn: banner needs an image"),
        (.card, "a classic card (asked for banner)"),
      ]),
    Row(
      name: "carousel slides",
      payload: notification([
        "displayType": "carousel", "carousel": [["image": "https://e.com/1.png"], ["title": "x"]],
      ]),
      expected: [(.carouselSlides, "read 2 slide(s) from carousel in the custom data; 1 shown; ")]),
    Row(
      name: "buttons shown and dropped",
      payload: notification(["buttons": [["title": "Go", "url": "https://e.com"], ["url": "https://e.com"]]]),
      expected: [(.buttons, "read 2 button(s) from buttons in the custom data; 1 shown; ")]),
    Row(
      name: "buttons on a kind without them",
      payload: notification(["displayType": "banner", "buttons": [["title": "Go"]]], image: "https://e.com/a.png"),
      expected: [(.buttons, "banner cards show no buttons: none shown")]),
    Row(
      name: "unsafe scheme", payload: notification(image: "javascript:alert(1)"),
      expected: [(.images, "its scheme is not allowed"), (.unsafeSchemes, "the scheme guard; the image")]),
    Row(
      name: "row action", payload: ["inbox_days": 7, "title": "T", "content": "B", "link": "https://e.com/sale"],
      expected: [(.rowActions, "a row tap opens https://e.com/sale")]),
    Row(
      name: "no row action", payload: notification(),
      expected: [(.rowActions, "a row tap does nothing"), (.card, "a classic card, 0 button(s)")]),
  ]

  @Test(arguments: rows)
  func eachRuleSaysWhatItReadAndDecided(row: Row) throws {
    let (message, _) = try Engine.ingest(payload: row.payload, context: IngestContext(id: "m", now: 1_790_000_000))
    let (card, warnings, reasons) = Resolver.explain(message, attributes: row.attributes)
    // Explaining changes nothing about the resolve.
    let resolved = Resolver.resolve(message, attributes: row.attributes)
    #expect(card == resolved.card && warnings == resolved.warnings)
    #expect(reasons.last?.rule == .card)
    var rest = reasons[...]
    for (rule, words) in row.expected {
      let found = rest.firstIndex { $0.rule == rule && $0.text.contains(words) }
      #expect(found != nil, "\(row.name): no \(rule) reason with \"\(words)\" in order among \(reasons.map(\.text))")
      if let found { rest = reasons[found...] }
    }
    #expect(reasons.allSatisfy { $0.text.hasPrefix("\($0.rule.title) (docs/engine.md#") })
  }
}
