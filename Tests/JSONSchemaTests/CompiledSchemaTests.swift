import Dispatch
import JSON
import Testing

@testable import JSONSchema

/// The compiled validator: schemas compiled once, `$ref`s shared, safe across threads, and the
/// violation reported the one the schema's JSON read value by value would report.
struct CompiledSchemaTests {
  static let tree: JSONValue = [
    "definitions": [
      "tree": [
        "type": "object", "required": ["name"],
        "properties": [
          "name": ["type": "string"],
          "children": ["type": "array", "items": ["$ref": "#/definitions/tree"]],
        ],
      ]
    ]
  ]

  /// A schema that refers to itself is compiled as a loop: the `$ref` inside its target is the
  /// slot the target was compiled for, not a copy.
  @Test func recursiveReferenceIsCompiledOnce() throws {
    let compiler = SchemaCompiler(document: Self.tree)
    let slot = compiler.slot(for: "#/definitions/tree")
    #expect(compiler.slot(for: "#/definitions/tree") === slot)
    let target = try #require(compiler.target(of: "#/definitions/tree"))
    let children = try #require(Self.checks(of: target).compactMap { $0 as? PropertiesCheck }.first)
    let list = try #require(children.names.firstIndex(of: "children").map { children.nodes[$0] })
    let items = try #require(Self.checks(of: list).compactMap { $0 as? ItemsCheck }.first)
    let inner = try #require(Self.checks(of: items.node).first as? ReferenceCheck)
    #expect(inner.slot === slot)
  }

  /// Deep in a recursive schema, the path and pointer are those of the value.
  @Test func recursiveReferenceReportsTheDeepPlace() {
    let value: JSONValue = ["name": "a", "children": [["name": "b", "children": [["name": 1]]]]]
    let found = SchemaValidator(document: Self.tree).violation(
      of: value, against: ["$ref": "#/definitions/tree"], at: "p", pointer: JSONPointer(["x"]))
    #expect(found?.path == "p.children[0].children[0].name")
    #expect(found?.pointer == JSONPointer(["x", "children", "0", "children", "0", "name"]))
    #expect(found?.message == "expected string, got integer")
  }

  private static func checks(of node: SchemaNode) -> [any SchemaCheck] {
    if case .checks(let checks) = node.body { return checks.map(\.check) }
    return []
  }

  /// One validator used from many threads at once gives each value the answer it gives alone.
  @Test func concurrentUseAgreesWithSerialUse() {
    let validator = SchemaValidator(document: Self.tree)
    let values: [JSONValue] = (0..<64).map { index in
      index % 3 == 0
        ? ["name": .string("n\(index)"), "children": [["name": .int(Int64(index))]]]
        : ["name": .string("n\(index)"), "children": [["name": "leaf", "children": []]]]
    }
    let check: @Sendable (JSONValue) -> SchemaViolation? = { value in
      validator.violation(of: value, against: ["$ref": "#/definitions/tree"], at: "p")
    }
    let serial = values.map(check)
    let results = Results(count: values.count)
    DispatchQueue.concurrentPerform(iterations: values.count * 4) { iteration in
      results.set(iteration % values.count, check(values[iteration % values.count]))
    }
    #expect(results.all == serial)
    #expect(serial.compactMap { $0 }.count == 22)
  }

  /// The answers of `concurrentPerform`'s iterations.
  private final class Results: @unchecked Sendable {
    private var answers: [SchemaViolation?]
    private let lock = DispatchQueue(label: "results")
    init(count: Int) { answers = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ answer: SchemaViolation?) { lock.sync { answers[index] = answer } }
    var all: [SchemaViolation?] { lock.sync { answers } }
  }

  /// (schema, value, path, rule, message): `anyOf` and `oneOf` report the option that got
  /// deepest, the earlier of equals, and themselves when that option failed at their own path.
  static let choices: [(JSONValue, JSONValue, String, String, String)] = [
    (
      ["anyOf": [["type": "string"], ["type": "object", "required": ["id"]]]], [:], "p.id", "required",
      "required"
    ),
    (["anyOf": [["minimum": 5], ["maximum": 1]]], 3, "p", "anyOf", "matches none of the allowed shapes"),
    (
      ["anyOf": [["properties": ["a": ["minimum": 5]]], ["properties": ["a": ["maximum": 1]]]]], ["a": 3], "p.a",
      "minimum", "must be at least 5"
    ),
    (
      ["oneOf": [["properties": ["a": ["type": "string"]]], ["properties": ["b": ["type": "string"]]]]],
      ["a": 1, "b": 2], "p.a", "type", "expected string, got integer"
    ),
    (
      ["oneOf": [["properties": ["a": ["const": 1]]], ["properties": ["a": ["maximum": 0]]]]], ["a": 2], "p.a",
      "maximum", "must be at most 0"
    ),
    // A member named "" below the path "p" spells "p.", another path.
    (
      ["anyOf": [["properties": ["": ["type": "string"]]], ["type": "array"]]], ["": 1], "p.", "type",
      "expected string, got integer"
    ),
  ]

  @Test(arguments: choices)
  func closestFailureIsReported(
    _ schema: JSONValue, _ value: JSONValue, _ path: String, _ rule: String, _ message: String
  ) {
    let found = SchemaValidator(document: [:]).violation(of: value, against: schema, at: "p")
    #expect(found?.path == path)
    #expect(found?.rule == rule)
    #expect(found?.message == message)
  }

  /// Below an empty path, a member named "" spells the same empty path: the combinator is reported.
  @Test func emptyMemberBelowEmptyPathIsTheSamePlace() {
    let schema: JSONValue = ["anyOf": [["properties": ["": ["type": "string"]]], ["type": "array"]]]
    let found = SchemaValidator(document: [:]).violation(of: ["": 1], against: schema, at: "")
    #expect(found?.rule == "anyOf")
    #expect(found?.pointer == JSONPointer())
  }

  /// A schema passed again is compiled once; schemas equal as JSON but written in another order
  /// are each checked as written.
  @Test func passedSchemasAreKeptByStorage() {
    let first: JSONValue = ["patternProperties": ["^a": ["type": "string"], "b$": ["type": "integer"]]]
    let second: JSONValue = ["patternProperties": ["b$": ["type": "integer"], "^a": ["type": "string"]]]
    #expect(first == second)
    let compiler = SchemaCompiler(document: [:])
    #expect(compiler.passedNode(for: first) === compiler.passedNode(for: first))
    let validator = SchemaValidator(document: [:])
    #expect(validator.violation(of: ["ab": true], against: first, at: "p")?.message == "expected string, got boolean")
    #expect(validator.violation(of: ["ab": true], against: second, at: "p")?.message == "expected integer, got boolean")
  }

  /// A pattern's remembered answers are for the exact text: the Kelvin sign equals "K" as a Swift
  /// String, not to the pattern.
  @Test func rememberedAnswersAreExact() throws {
    let pattern = try Pattern("^K$")
    #expect(pattern.matches("K"))
    #expect(!pattern.matches("\u{212A}"))
    #expect(pattern.matches("K"))
  }
}
