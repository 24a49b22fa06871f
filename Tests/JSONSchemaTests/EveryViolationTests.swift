import JSON
import Testing

@testable import JSONSchema

/// Every way a value breaks its schema, at once: each member and item on its own, each at its
/// place, in words, with the keyword's place in the schema.
struct EveryViolationTests {
  static let document: JSONValue = [
    "definitions": [
      "Data": [
        "type": "object",
        "properties": [
          "displayType": [
            "type": "string", "description": "The kind: banner or classic (any case).",
            "pattern": "^([Bb][Aa][Nn][Nn][Ee][Rr]|[Cc][Ll][Aa][Ss][Ss][Ii][Cc])$",
          ],
          "buttons": [
            "type": "array",
            "items": [
              "type": "object", "required": ["title"],
              "properties": ["title": ["type": "string"], "action": ["enum": ["dismiss", "markRead"]]],
            ],
          ],
        ],
      ]
    ]
  ]

  static let validator = SchemaValidator(document: document)
  static let schema: JSONValue = ["$ref": "#/definitions/Data"]

  @Test func threeMistakesAreThreeViolations() {
    let value: JSONValue = ["displayType": "bannr", "buttons": [["title": 5], ["action": "dismis"]]]
    let found = Self.validator.violations(of: value, against: Self.schema, at: "u")
    #expect(found.map(\.path) == ["u.displayType", "u.buttons[0].title", "u.buttons[1].title", "u.buttons[1].action"])
    #expect(
      found.map(\.message) == [
        #"must be one of banner or classic (any case), got "bannr""#, "expected string, got integer", "required",
        #"must be one of "dismiss", "markRead", got "dismis""#,
      ])
    #expect(
      found.map(\.schemaPath) == [
        "#/definitions/Data/properties/displayType/pattern",
        "#/definitions/Data/properties/buttons/items/properties/title/type",
        "#/definitions/Data/properties/buttons/items/required",
        "#/definitions/Data/properties/buttons/items/properties/action/enum",
      ])
    #expect(found[2].pointer == JSONPointer(["buttons", "1", "title"]))
    // The first of the list is the one violation(of:) reports.
    #expect(Self.validator.violation(of: value, against: Self.schema, at: "u") == found.first)
  }

  /// A value of the wrong type is told so once, not again by each keyword of its schema.
  @Test func aWrongTypeIsOneViolation() {
    let found = Self.validator.violations(of: ["displayType": 3], against: Self.schema, at: "u")
    #expect(found.map(\.rule) == ["type"])
  }

  @Test func theListStopsAtItsLimit() {
    let buttons = JSONValue.array(Array(repeating: [:], count: 50))
    let found = Self.validator.violations(of: ["buttons": buttons], against: Self.schema, at: "u", limit: 10)
    #expect(found.count == 10 && found.last?.path == "u.buttons[9].title")
  }

  /// Where no variant fits, the mistakes are those of the variant that got furthest.
  @Test func anyOfTellsTheClosestVariantsMistakes() {
    let schema: JSONValue = [
      "anyOf": [
        ["type": "string"],
        ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "integer"]]],
      ]
    ]
    let found = SchemaValidator(document: [:]).violations(of: ["a": "x", "b": "y"], against: schema, at: "p")
    #expect(found.map(\.path) == ["p.a", "p.b"])
    #expect(found.map(\.schemaPath) == ["#/anyOf/1/properties/a/type", "#/anyOf/1/properties/b/type"])
  }

  @Test(
    arguments: [
      ("^([Bb][Aa][Nn][Nn][Ee][Rr]|[Vv][Ii][Dd][Ee][Oo])$", nil, "must be one of banner or video (any case)"),
      ("^[Hh][Tt][Tt][Pp][Ss]?://", nil, "must start with http:// or https:// (any case)"),
      (
        "^([Dd][Ii][Ss][Mm][Ii][Ss][Ss]|[Mm][Aa][Rr][Kk][Rr][Ee][Aa][Dd])$", "dismiss or markRead",
        "must be one of dismiss or markRead (any case)"
      ),
      ("^abc$", nil, "must be abc"),
      ("^[0-9]{4}$", nil, nil),
      ("^[Aa]b$", nil, nil),
      ("abc", nil, nil),
    ] as [(String, String?, String?)])
  func patternsThatListWordsAreSaidAsTheWords(source: String, description: String?, words: String?) {
    #expect(PatternWords.describe(source, description: description) == words)
  }
}
