import InboxCore
import JSON
import Testing

/// Replays `Fixtures/resolver-cases.json`: one row per rule and per degradation path of the resolver
/// (docs/engine.md#card-kinds and the sections after it).
@Suite struct ResolverCaseTests {
  /// The fixture loads, names are unique, and every row only uses expectation keys this runner checks.
  @Test func fixtureIsWellFormed() throws {
    let cases = try ResolverCase.loaded.get()
    #expect(cases.count >= 90)
    #expect(Set(cases.map(\.name)).count == cases.count, "duplicate case names")
    for row in cases {
      let unknown = Set(row.expect.keys).subtracting(ResolverCase.knownExpectKeys)
      #expect(unknown.isEmpty, "\(row.name): unknown expect keys \(unknown)")
      #expect(row.expect["error"] != nil || row.expect["kind"] != nil, "\(row.name): expects neither kind nor error")
    }
  }

  /// Each row resolves to exactly the kind, degradation, warnings, buttons and fields it names.
  @Test(arguments: ResolverCase.all)
  func resolves(_ row: ResolverCase) throws {
    let attributes =
      try row.attributes.map { value throws(AttributesError) in try Attributes(json: value) }
      ?? Attributes()
    let expect = row.expect

    if let error = expect["error"]?.stringValue {
      do {
        let resolution = try Engine.resolve(payload: row.payload, context: row.context, attributes: attributes)
        Issue.record("\(row.name): expected \(error), got a \(resolution.card.kind) card")
      } catch {
        #expect(error.code == expect["error"]?.stringValue)
        if let part = expect["reasonContains"]?.stringValue {
          #expect(error.reason.contains(part), "\(row.name): reason \"\(error.reason)\" lacks \"\(part)\"")
        }
      }
      return
    }

    let resolution = try Engine.resolve(payload: row.payload, context: row.context, attributes: attributes)
    let card = resolution.card.json
    let warnings = resolution.warnings

    if let kind = expect["kind"] { #expect(card["kind"] == kind, "\(row.name): kind") }
    if let requested = expect["requestedKind"] {
      #expect(card["requestedKind"] == requested, "\(row.name): requestedKind")
    }
    if let from = expect["degradedFrom"] {
      if from == .null {
        #expect(card["degraded"] == .null, "\(row.name): expected no degradation, got \(card["degraded"] ?? .null)")
      } else {
        #expect(card["degraded"]?["from"] == from, "\(row.name): degraded.from")
      }
    }
    if let part = expect["reasonContains"]?.stringValue {
      let reason = card["degraded"]?["reason"]?.stringValue ?? ""
      #expect(reason.contains(part), "\(row.name): reason \"\(reason)\" lacks \"\(part)\"")
    }
    if let codes = expect["warningCodes"] {
      let actual = JSONValue.array(warnings.map { .string($0.code.rawValue) })
      #expect(actual == codes, "\(row.name): warnings \(warnings.map(\.description))")
    }
    if let buttons = expect["buttons"]?.arrayValue {
      let actual = card["buttons"]?.arrayValue ?? []
      #expect(actual.count == buttons.count, "\(row.name): button count, got \(actual)")
      for (expected, got) in zip(buttons, actual) {
        if let type = expected.stringValue {
          #expect(got["action"]?["type"]?.stringValue == type, "\(row.name): button action type")
        } else {
          #expect(got == expected, "\(row.name): button \(got.jsonString) != \(expected.jsonString)")
        }
      }
    }
    if let slides = expect["slides"]?.intValue {
      #expect(Int64(card["carousel"]?.arrayValue?.count ?? 0) == slides, "\(row.name): slide count")
    }
    for key in ["pinned", "customData", "rowAction"] {
      if let value = expect[key] {
        #expect(card[key] == value, "\(row.name): \(key) \((card[key] ?? .null).jsonString) != \(value.jsonString)")
      }
    }
    for member in expect["card"]?.objectValue ?? [:] {
      #expect(
        card[member.key] == member.value,
        "\(row.name): card.\(member.key) \((card[member.key] ?? .null).jsonString) != \(member.value.jsonString)")
    }

    // Invariants every row must keep, whatever it tests.
    #expect(warnings.allSatisfy { $0.messageId == resolution.card.id }, "\(row.name): warning for another id")
    if let degradation = resolution.card.degradation {
      #expect(resolution.card.kind == .classic)
      #expect(
        warnings.contains {
          $0.code == .degraded && $0.requestedKind == degradation.from.rawValue
            && $0.usedKind == "classic" && $0.reason.contains(degradation.reason)
        },
        "\(row.name): degradation without its warning")
    }
    if !resolution.card.kind.showsButtons { #expect(resolution.card.buttons.isEmpty) }
    #expect((card["avatar"] != nil) == (resolution.card.kind == .classic), "\(row.name): avatar only on classic")
  }
}
