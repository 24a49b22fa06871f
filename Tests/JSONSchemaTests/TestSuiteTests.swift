import Foundation
import JSON
import Testing

@testable import JSONSchema

/// The official JSON-Schema-Test-Suite, draft 2020-12 (`../shared/jsonschema-test-suite`, beside the
/// repository): every case whose schema stays within the allow-list must pass, and every keyword of
/// the allow-list must be exercised by some case.
struct TestSuiteTests {
  static let suite = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/jsonschema-test-suite/tests/draft2020-12").standardizedFileURL
  static let present = FileManager.default.fileExists(atPath: suite.path)

  struct Tally {
    var cases = 0
    var passed = 0
    var inScope = 0
    var inScopePassed = 0
    var failures: [String] = []
    var covered: Set<String> = []
  }

  static func run() throws -> Tally {
    var tally = Tally()
    let files = try FileManager.default.contentsOfDirectory(atPath: suite.path).filter { $0.hasSuffix(".json") }
      .sorted()
    for file in files {
      let bytes = try [UInt8](Data(contentsOf: suite.appendingPathComponent(file)))
      for group in try JSONValue.parse(bytes: bytes).arrayValue ?? [] {
        let schema = group["schema"] ?? true
        let inScope = SchemaKeywords.unsupported(in: schema).isEmpty
        if inScope { tally.covered.formUnion(keywords(in: schema)) }
        let validator = SchemaValidator(document: schema)
        for test in group["tests"]?.arrayValue ?? [] {
          let valid = validator.violation(of: test["data"] ?? .null, against: schema, at: "") == nil
          let right = valid == (test["valid"]?.boolValue ?? false)
          tally.cases += 1
          tally.passed += right ? 1 : 0
          guard inScope else { continue }
          tally.inScope += 1
          tally.inScopePassed += right ? 1 : 0
          if !right {
            let names = "\(group["description"]?.stringValue ?? "") / \(test["description"]?.stringValue ?? "")"
            tally.failures.append("\(file): \(names)")
          }
        }
      }
    }
    return tally
  }

  /// The validation keywords a schema uses, anywhere in it.
  static func keywords(in schema: JSONValue) -> Set<String> {
    switch schema.plain {
    case .object(let object):
      var found = Set(object.keys).intersection(SchemaKeywords.validation)
      // Subschemas and data alike: over-counting data keys only matters if a keyword's name
      // appears solely as data, and the coverage check is about keywords the suite exercises.
      for member in object.members where !["enum", "const", "default", "examples"].contains(member.key) {
        found.formUnion(keywords(in: member.value))
      }
      return found
    case .array(let items): return items.reduce(into: []) { $0.formUnion(keywords(in: $1)) }
    default: return []
    }
  }

  @Test(
    .enabled(
      if: present, "../shared/jsonschema-test-suite is not beside this checkout; the suite run is skipped"))
  func everyCaseWithinTheAllowListPasses() throws {
    let tally = try Self.run()
    print(
      "JSON-Schema-Test-Suite draft2020-12: \(tally.inScopePassed) of \(tally.inScope) cases within the allow-list pass"
        + " (\(tally.passed) of \(tally.cases) in all), \(tally.covered.count) keywords covered")
    #expect(tally.failures.isEmpty, "\(tally.failures.joined(separator: "\n"))")
    #expect(tally.inScope * 2 > tally.cases, "the allow-list leaves too little of the suite in scope")
    #expect(
      tally.covered == SchemaKeywords.validation,
      "not exercised: \(SchemaKeywords.validation.subtracting(tally.covered))")
  }

  @Test func theTableIsTheAllowList() {
    #expect(SchemaValidator.implemented == SchemaKeywords.validation)
    #expect(SchemaKeywords.annotations.contains("description"))
  }

  @Test func unsupportedKeywordsAreNamedWithTheirPlace() {
    let schema: JSONValue = [
      "properties": ["a": ["unevaluatedItems": ["type": "string"]], "dependentRequired": ["type": "string"]],
      "x-note": "ignored",
      "allOf": [["$ref": "other.json#/x"]],
    ]
    let found = SchemaKeywords.unsupported(in: schema).map(\.description)
    #expect(found == ["unevaluatedItems at /properties/a", "$ref to other.json#/x at /allOf/0"])
  }
}
