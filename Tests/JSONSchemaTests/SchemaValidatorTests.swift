import JSON
import JSONSchema
import Testing

/// One row per keyword: a schema, a value, and the violation expected (path and rule), or none.
struct SchemaCase: CustomTestStringConvertible, Sendable {
  var name: String
  var schema: JSONValue
  var value: JSONValue
  var expected: (path: String, rule: String)?
  var testDescription: String { name }

  static let document: JSONValue = [
    "components": ["schemas": ["Kind": ["type": "string", "enum": ["banner", "classic"]]]],
    "definitions": ["a/b": ["type": "integer"], "": ["x": ["type": "integer"]]],
  ]

  static let all: [SchemaCase] = [
    .init(name: "type ok", schema: ["type": "string"], value: "x", expected: nil),
    .init(name: "type bad", schema: ["type": "string"], value: 1, expected: ("p", "type")),
    .init(name: "type list", schema: ["type": ["string", "null"]], value: nil, expected: nil),
    .init(name: "integer accepts 2.0", schema: ["type": "integer"], value: 2.0, expected: nil),
    .init(name: "integer refuses 2.5", schema: ["type": "integer"], value: 2.5, expected: ("p", "type")),
    .init(name: "number accepts integer", schema: ["type": "number"], value: 3, expected: nil),
    .init(name: "boolean is not integer", schema: ["type": "integer"], value: true, expected: ("p", "type")),
    .init(name: "enum", schema: ["enum": ["a", "b"]], value: "c", expected: ("p", "enum")),
    .init(name: "const", schema: ["const": "2.0"], value: "2.1", expected: ("p", "const")),
    .init(
      name: "required", schema: ["type": "object", "required": ["id"]], value: [:], expected: ("p.id", "required")),
    .init(
      name: "property path", schema: ["properties": ["a": ["properties": ["b": ["type": "integer"]]]]],
      value: ["a": ["b": "x"]], expected: ("p.a.b", "type")),
    .init(
      name: "additionalProperties false", schema: ["properties": ["a": true], "additionalProperties": false],
      value: ["a": 1, "zz": 2], expected: ("p.zz", "additionalProperties")),
    .init(
      name: "additionalProperties schema", schema: ["additionalProperties": ["type": "integer"]],
      value: ["a": 1, "b": "x"], expected: ("p.b", "type")),
    .init(
      name: "items path", schema: ["items": ["type": "object", "required": ["title"]]], value: [["title": "a"], [:]],
      expected: ("p[1].title", "required")),
    .init(name: "minItems", schema: ["minItems": 1], value: [], expected: ("p", "minItems")),
    .init(name: "maxItems", schema: ["maxItems": 1], value: [1, 2], expected: ("p", "maxItems")),
    .init(name: "uniqueItems", schema: ["uniqueItems": true], value: [1, 1], expected: ("p", "uniqueItems")),
    .init(name: "minimum", schema: ["minimum": 1], value: 0, expected: ("p", "minimum")),
    .init(name: "maximum", schema: ["maximum": 200], value: 201, expected: ("p", "maximum")),
    .init(name: "minLength counts characters", schema: ["minLength": 2], value: "é", expected: ("p", "minLength")),
    .init(name: "maxLength", schema: ["maxLength": 1], value: "ab", expected: ("p", "maxLength")),
    .init(name: "pattern", schema: ["pattern": "^https?://"], value: "ftp://x", expected: ("p", "pattern")),
    .init(name: "minProperties", schema: ["minProperties": 1], value: [:], expected: ("p", "minProperties")),
    .init(
      name: "ref into components", schema: ["$ref": "#/components/schemas/Kind"], value: "video",
      expected: ("p", "enum")),
    .init(name: "ref with escape", schema: ["$ref": "#/definitions/a~1b"], value: "x", expected: ("p", "type")),
    .init(name: "missing ref", schema: ["$ref": "#/nowhere"], value: 1, expected: ("p", "$ref")),
    .init(name: "ref percent-decoded", schema: ["$ref": "#/definitions/%61~1b"], value: "x", expected: ("p", "type")),
    .init(name: "ref broken escape", schema: ["$ref": "#/definitions/%6"], value: "x", expected: ("p", "$ref")),
    .init(name: "ref empty token", schema: ["$ref": "#/definitions//x"], value: "x", expected: ("p", "type")),
    .init(name: "enum numbers by value", schema: ["enum": [1, "a"]], value: 1.0, expected: nil),
    .init(name: "const -0.0 is 0", schema: ["const": 0], value: -0.0, expected: nil),
    .init(
      name: "const keeps large integers exact", schema: ["const": 9_007_199_254_740_993],
      value: 9_007_199_254_740_992.0, expected: ("p", "const")),
    .init(name: "enum strings by code point", schema: ["enum": ["\u{E9}"]], value: "e\u{301}", expected: ("p", "enum")),
    .init(
      name: "uniqueItems by value", schema: ["uniqueItems": true], value: [1, 1.0], expected: ("p", "uniqueItems")),
    .init(
      name: "maxProperties", schema: ["maxProperties": 1], value: ["a": 1, "b": 2], expected: ("p", "maxProperties")),
    .init(name: "exclusiveMinimum", schema: ["exclusiveMinimum": 1], value: 1, expected: ("p", "exclusiveMinimum")),
    .init(name: "exclusiveMaximum", schema: ["exclusiveMaximum": 1.5], value: 1.5, expected: ("p", "exclusiveMaximum")),
    .init(name: "multipleOf", schema: ["multipleOf": 0.5], value: 1.25, expected: ("p", "multipleOf")),
    .init(
      name: "patternProperties",
      schema: ["patternProperties": ["^x-": ["type": "string"]], "additionalProperties": false],
      value: ["x-a": 1], expected: ("p.x-a", "type")),
    .init(
      name: "propertyNames", schema: ["propertyNames": ["pattern": "^[a-z]+$"]], value: ["ok": 1, "No": 2],
      expected: ("p.No", "propertyNames")),
    .init(
      name: "dependentRequired", schema: ["dependentRequired": ["card": ["expiry"]]], value: ["card": 1],
      expected: ("p.expiry", "dependentRequired")),
    .init(name: "contains", schema: ["contains": ["type": "string"]], value: [1, 2], expected: ("p", "contains")),
    .init(
      name: "maxContains", schema: ["contains": ["type": "string"], "maxContains": 1], value: ["a", "b"],
      expected: ("p", "maxContains")),
    .init(
      name: "if then", schema: ["if": ["required": ["a"]], "then": ["required": ["b"]], "else": ["required": ["c"]]],
      value: ["a": 1], expected: ("p.b", "required")),
    .init(
      name: "if else", schema: ["if": ["required": ["a"]], "then": ["required": ["b"]], "else": ["required": ["c"]]],
      value: [:], expected: ("p.c", "required")),
    .init(
      name: "oneOf none, deepest variant reported",
      schema: [
        "oneOf": [
          [
            "type": "object", "properties": ["type": ["const": "openURL"], "url": ["type": "string"]],
            "required": ["type", "url"],
          ],
          ["type": "object", "properties": ["type": ["const": "dismiss"]], "required": ["type"]],
        ]
      ], value: ["type": "openURL"], expected: ("p.url", "required")),
    .init(
      name: "oneOf two", schema: ["oneOf": [["type": "integer"], ["type": "number"]]], value: 1,
      expected: ("p", "oneOf")),
    .init(
      name: "anyOf", schema: ["anyOf": [["type": "integer"], ["type": "string"]]], value: nil, expected: ("p", "anyOf")),
    .init(
      name: "allOf", schema: ["allOf": [["type": "integer"], ["minimum": 5]]], value: 3, expected: ("p", "minimum")),
    .init(name: "not", schema: ["not": ["type": "null"]], value: nil, expected: ("p", "not")),
    .init(name: "false schema", schema: false, value: 1, expected: ("p", "false")),
    // The first violation is the table's first, whatever order the schema writes its keywords in.
    .init(
      name: "kind before size, written after", schema: ["maxLength": 1, "type": "integer"], value: "ab",
      expected: ("p", "type")),
    .init(
      name: "members before sizes, written after",
      schema: ["x-note": 1, "minProperties": 3, "properties": ["a": ["type": "integer"]]], value: ["a": "x"],
      expected: ("p.a", "type")),
    .init(
      name: "annotations ignored", schema: ["description": "x", "format": "uri", "x-note": 1], value: 5, expected: nil),
  ]
}

struct SchemaValidatorTests {
  @Test(arguments: SchemaCase.all)
  func keyword(_ row: SchemaCase) {
    let found = SchemaValidator(document: SchemaCase.document).violation(of: row.value, against: row.schema, at: "p")
    if let expected = row.expected {
      #expect(found?.path == expected.path, "\(found.map(String.init(describing:)) ?? "no violation")")
      #expect(found?.rule == expected.rule)
    } else {
      #expect(found == nil, "\(found.map(String.init(describing:)) ?? "")")
    }
  }

  /// (schema, value, the message expected or nil)
  static let boundRows: [(JSONValue, JSONValue, String?)] = [
    (["minProperties": 2], ["a": 1], "needs at least 2 member(s)"),
    (["minItems": 1], [], "needs at least 1 item(s)"),
    (["maxItems": 1], [1, 2, 3], "at most 1 item(s), got 3"),
    (["minimum": 1.5], 1, "must be at least 1.5"),
    (["maximum": 200], 201, "must be at most 200"),
    (["minLength": 2], "é", "needs at least 2 character(s)"),
    (["maxLength": 1], "ab", "at most 1 character(s)"),
    (["maxItems": 2], [1, 2], nil),
    (["minimum": 1], 1, nil),
    (["maximum": 0], true, nil),
    (["minLength": 3], 12345, nil),
    (["minItems": 1], "not an array", nil),
  ]

  /// The bounds say the limit as the schema writes it; each applies to its own type only, and a
  /// value on the limit passes.
  @Test(arguments: boundRows)
  func bounds(_ schema: JSONValue, _ value: JSONValue, _ message: String?) {
    let found = SchemaValidator(document: [:]).violation(of: value, against: schema, at: "p")
    #expect(found?.message == message)
  }

  @Test func selfReferenceIsBounded() {
    let document: JSONValue = ["definitions": ["loop": ["$ref": "#/definitions/loop"]]]
    let found = SchemaValidator(document: document).violation(of: 1, against: ["$ref": "#/definitions/loop"], at: "p")
    #expect(found?.rule == "depth")
  }
}
