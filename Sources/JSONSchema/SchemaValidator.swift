import JSON

/// Checks JSON values against JSON Schema, in exactly the keywords of `SchemaKeywords.validation`
/// (Resources/keywords.json), read as draft 2020-12 reads them; annotations (`description`,
/// `format`, `examples`, `default`, `x-*`, ...) are read past. Reports every violation (or the
/// first), each with its path, its JSON pointer and the keyword's place in the schema.
///
/// Each schema is compiled once into `SchemaNode`s, and each `$ref` target on first use: a lint of
/// thousands of payloads meets the same few schemas thousands of times.
///
/// Against the official JSON-Schema-Test-Suite (draft 2020-12), every case whose schema stays
/// within the allow-list passes: see README.md beside this file for the figure.
public struct SchemaValidator: Sendable {
  /// The document `$ref`s point into (`#/components/schemas/Card`, `#/definitions/X`).
  public var document: JSONValue { compiler.document }
  private let compiler: SchemaCompiler

  public init(document: JSONValue) { compiler = SchemaCompiler(document: document) }

  /// The first way `value` breaks `schema`, or nil when it conforms. `path` names the value in
  /// messages; `pointer` is where the value sits in its file, the start of every violation's pointer.
  public func violation(
    of value: JSONValue, against schema: JSONValue, at path: String, pointer: JSONPointer = JSONPointer()
  ) -> SchemaViolation? {
    violations(of: value, against: schema, at: path, pointer: pointer, limit: 1).first
  }

  /// Every way `value` breaks `schema`, up to `limit`, in the order the keywords are tried: each
  /// member and item is checked on its own, so a payload's mistakes are all told at once. A value of
  /// the wrong type is told so, and not checked further; where no variant of an `anyOf` or `oneOf`
  /// fits, the mistakes are those of the variant that got furthest.
  public func violations(
    of value: JSONValue, against schema: JSONValue, at path: String, pointer: JSONPointer = JSONPointer(),
    limit: Int = 100
  ) -> [SchemaViolation] {
    // Most values conform: they are walked once for an answer, and again for the places and the
    // messages only when they do not.
    let place = SchemaPlace(path: path, pointer: pointer)
    var found = SchemaFailures(limit: limit)
    // A schema that is one `$ref` (a shape of the document) goes straight to its slot.
    if case .object(let rules) = schema.plain, rules.count == 1, let reference = rules["$ref"]?.stringValue {
      let slot = compiler.slot(for: reference)
      guard !slot.admits(value, depth: 0, compiler) else { return [] }
      slot.collect(value, at: place, depth: 0, compiler, into: &found)
      found.place(from: 0, at: "#/$ref")
    } else {
      let node = compiler.passedNode(for: schema)
      guard !node.admits(value, depth: 0, compiler) else { return [] }
      node.collect(value, at: place, depth: 0, compiler, into: &found)
    }
    return found.list.map(\.violation)
  }

  /// The keywords this validator's table holds, `then`/`else` read by `if`, `minContains` and
  /// `maxContains` by `contains`.
  public static var implemented: Set<String> {
    Set(keywords.map(\.name) + ["$ref", "then", "else", "minContains", "maxContains"])
  }
}

/// One keyword of the table: its name, and how it compiles to a check from its value and the schema
/// object it sits in (`items` reads `prefixItems`, `if` reads `then` and `else`), its child schemas
/// compiled at their places (`scope`); nil when it checks nothing.
struct Keyword: Sendable {
  let name: String
  let compile: @Sendable (_ value: JSONValue, _ rules: JSONObject, _ scope: SchemaScope) -> (any SchemaCheck)?
}
