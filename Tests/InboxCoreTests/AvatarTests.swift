import InboxCore
import JSON
import Testing

/// Classic cards carry a coloured initial whose colour depends only on the message id (docs/engine.md#classic-avatar).
@Suite struct AvatarTests {
  /// The colour is FNV-1a 32 of the id modulo the palette; the expected values come from a Python
  /// implementation, so the hash is checked rather than restated.
  @Test(arguments: [
    ("", "#4DB6AC"), ("a", "#4FC3F7"), ("m1", "#7986CB"), ("avde1c792cd", "#81C784"), ("seed-carousel", "#F06292"),
    ("7", "#81C784"),
  ])
  func colourIsFNVOfId(id: String, color: String) {
    #expect(Avatar.color(forID: id) == color)
    #expect(Avatar(id: id, title: "x", body: nil).color == color)
  }

  /// The same message always gets the same avatar, and the colour ignores title and body.
  @Test func sameMessageSameColour() throws {
    let payload: JSONValue = ["inbox_id": "m1", "title": "Sale", "text": "Now", "order": "1", "rt": 1, "status": 1]
    let first = try Engine.resolve(payload: payload, context: IngestContext(now: 0)).card
    let second = try Engine.resolve(payload: payload, context: IngestContext(now: 999)).card
    guard case .classic(let avatar) = first.content else {
      Issue.record("expected a classic card, got \(first.kind)")
      return
    }
    #expect(first.content == second.content)
    #expect(avatar == Avatar(initial: "S", color: "#7986CB"))
    #expect(Avatar(id: "m1", title: "Other", body: "x").color == avatar.color)
  }

  /// Ids spread over the palette: 64 ids use at least 6 of the 8 colours.
  @Test func coloursSpread() {
    let colours = Set((0..<64).map { Avatar.color(forID: "msg-\($0)") })
    #expect(colours.count >= 6)
    #expect(colours.isSubset(of: Set(Avatar.palette)))
  }

  /// The initial is the title's first character upper-cased, else the body's, else "?".
  @Test(
    arguments: [
      ("hello", "body", "H"), (nil, "world", "W"), ("   ", "body", "B"), ("  zed", nil, "Z"), (nil, nil, "?"),
      ("", "", "?"), ("ßtraße", nil, "S"), ("éclair", nil, "É"), ("🎉 party", nil, "🎉"), ("1st", nil, "1"),
    ] as [(String?, String?, String)])
  func initial(title: String?, body: String?, expected: String) {
    #expect(Avatar(id: "x", title: title, body: body).initial == expected)
  }
}
