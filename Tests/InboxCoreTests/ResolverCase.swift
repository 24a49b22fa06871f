import Foundation
import InboxCore
import JSON
import Testing

/// One row of `Fixtures/resolver-cases.json`: a payload, the host's attributes and what the card must be.
///
/// The same file is replayed end to end over stdio through `message.resolve`, so it stays plain JSON:
/// `{name, rule, payload, attributes?, context?: {id?, now}, expect}`. `expect` holds either
/// `{error: "notAnInboxMessage", reasonContains}` or any of: `kind`, `requestedKind`, `degradedFrom`
/// (null = not degraded), `reasonContains` (in the degradation reason), `warningCodes` (exact, in order),
/// `buttons` (each a full `{title, action}` or just the action type), `slides` (count), `pinned`,
/// `customData`, `rowAction` and `card` (members that must equal the Card JSON's exactly).
struct ResolverCase: Sendable, CustomTestStringConvertible {
  var name: String
  var rule: String
  var payload: JSONValue
  var attributes: JSONValue?
  var context: IngestContext
  var expect: JSONObject

  var testDescription: String { name }

  /// The `now` of cases without a context; such cases must not depend on it.
  static let defaultNow: Int64 = 1_780_000_000

  static let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/resolver-cases.json")

  /// Every case of the fixture, or an error text when the file cannot be read.
  static let loaded: Result<[ResolverCase], FixtureError> = load()

  /// The cases for `@Test(arguments:)`; empty when loading failed (the load test then fails).
  static var all: [ResolverCase] { (try? loaded.get()) ?? [] }

  struct FixtureError: Error, CustomStringConvertible {
    var description: String
  }

  private static func load() -> Result<[ResolverCase], FixtureError> {
    guard let bytes = FileManager.default.contents(atPath: fixtureURL.path) else {
      return .failure(FixtureError(description: "cannot read \(fixtureURL.path)"))
    }
    let root: JSONValue
    do {
      root = try JSONValue.parse(bytes: Array(bytes))
    } catch {
      return .failure(FixtureError(description: "fixture is not JSON: \(error)"))
    }
    guard let items = root.arrayValue else { return .failure(FixtureError(description: "fixture is not an array")) }
    var cases: [ResolverCase] = []
    for (offset, item) in items.enumerated() {
      guard let name = item["name"]?.stringValue, let rule = item["rule"]?.stringValue,
        let payload = item["payload"], let expect = item["expect"]?.objectValue
      else { return .failure(FixtureError(description: "case \(offset) lacks name, rule, payload or expect")) }
      let context = IngestContext(
        id: item["context"]?["id"]?.stringValue, now: item["context"]?["now"]?.intValue ?? defaultNow)
      cases.append(
        ResolverCase(
          name: name, rule: rule, payload: payload, attributes: item["attributes"], context: context, expect: expect))
    }
    return .success(cases)
  }

  static let knownExpectKeys: Set<String> = [
    "kind", "requestedKind", "degradedFrom", "reasonContains", "warningCodes", "buttons", "slides", "pinned",
    "customData", "rowAction", "card", "error",
  ]
}
