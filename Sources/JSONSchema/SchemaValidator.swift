import JSON

/// Checks JSON values against JSON Schema, in exactly the keywords of `SchemaKeywords.validation`
/// (Resources/keywords.json), read as draft 2020-12 reads them; annotations (`description`,
/// `format`, `examples`, `default`, `x-*`, ...) are read past. Reports the first violation, with
/// its path and JSON pointer.
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
    // Most values conform: they are walked once for an answer, and again for the place and the
    // message only when they do not.
    // A schema that is one `$ref` (a shape of the document) goes straight to its slot.
    if case .object(let rules) = schema.plain, rules.count == 1, let reference = rules["$ref"]?.stringValue {
      let slot = compiler.slot(for: reference)
      guard !slot.admits(value, depth: 0, compiler) else { return nil }
      return slot.failure(of: value, at: SchemaPlace(path: path, pointer: pointer), depth: 0, compiler)?.violation
    }
    let node = compiler.passedNode(for: schema)
    guard !node.admits(value, depth: 0, compiler) else { return nil }
    return node.failure(of: value, at: SchemaPlace(path: path, pointer: pointer), depth: 0, compiler)?.violation
  }

  /// The keywords this validator's table holds, `then`/`else` read by `if`, `minContains` and
  /// `maxContains` by `contains`.
  public static var implemented: Set<String> {
    Set(keywords.map(\.name) + ["$ref", "then", "else", "minContains", "maxContains"])
  }
}

/// One keyword of the table: its name, and how it compiles to a check from its value and the schema
/// object it sits in (`items` reads `prefixItems`, `if` reads `then` and `else`); nil when it checks nothing.
struct Keyword: Sendable {
  let name: String
  let compile: @Sendable (_ value: JSONValue, _ rules: JSONObject, _ compiler: SchemaCompiler) -> (any SchemaCheck)?
}
