import JSON

/// Checks JSON values against JSON Schema, in exactly the keywords of `SchemaKeywords.validation`
/// (Resources/keywords.json), read as draft 2020-12 reads them; annotations (`description`,
/// `format`, `examples`, `default`, `x-*`, ...) are read past. Reports the first violation, with
/// its path and JSON pointer.
///
/// Against the official JSON-Schema-Test-Suite (draft 2020-12), every case whose schema stays
/// within the allow-list passes: see README.md beside this file for the figure.
public struct SchemaValidator: Sendable {
  /// The document `$ref`s point into (`#/components/schemas/Card`, `#/definitions/X`).
  public let document: JSONValue
  /// Every `$ref` of the document, resolved once: a reply of many cards meets the same few refs
  /// thousands of times, and decoding and walking each pointer again was most of the work.
  private let references: [String: JSONValue]

  public init(document: JSONValue) {
    self.document = document
    var references: [String: JSONValue] = [:]
    Self.collectReferences(in: document, document: document, into: &references)
    self.references = references
  }

  private static func collectReferences(
    in value: JSONValue, document: JSONValue, into references: inout [String: JSONValue]
  ) {
    switch value.plain {
    case .object(let object):
      if let reference = object["$ref"]?.stringValue, references[reference] == nil,
        let target = resolve(reference, in: document)
      {
        references[reference] = target
      }
      for member in object.members { collectReferences(in: member.value, document: document, into: &references) }
    case .array(let items):
      for item in items { collectReferences(in: item, document: document, into: &references) }
    default: break
    }
  }

  /// The first way `value` breaks `schema`, or nil when it conforms. `path` names the value in
  /// messages; `pointer` is where the value sits in its file, the start of every violation's pointer.
  public func violation(
    of value: JSONValue, against schema: JSONValue, at path: String, pointer: JSONPointer = JSONPointer()
  ) -> SchemaViolation? {
    check(value, schema, SchemaPlace(path: path, pointer: pointer), depth: 0)
  }

  /// The keywords this validator's table holds, `then`/`else` read by `if`, `minContains` and
  /// `maxContains` by `contains`.
  public static var implemented: Set<String> {
    Set(keywords.map(\.name) + ["$ref", "then", "else", "minContains", "maxContains"])
  }

  private static let maxDepth = 64

  func check(_ value: JSONValue, _ schema: JSONValue, _ place: SchemaPlace, depth: Int) -> SchemaViolation? {
    guard depth < Self.maxDepth else { return SchemaViolation(place, "depth", "nested too deeply to check") }
    switch schema.plain {
    case .bool(true): return nil
    case .bool(false): return SchemaViolation(place, "false", "no value is allowed here")
    case .object(let rules):
      if let reference = rules["$ref"]?.stringValue {
        guard let target = resolve(reference) else {
          return SchemaViolation(place, "$ref", "the schema refers to \(reference), which is missing")
        }
        if let found = check(value, target, place, depth: depth + 1) { return found }
      }
      // Only the keywords the schema holds are tried, still in the table's order.
      var present = Self.present(in: rules)
      while present != 0 {
        let keyword = Self.keywords[present.trailingZeroBitCount]
        present &= present - 1
        if let found = keyword.check(self, value, rules, place, depth) { return found }
      }
      return nil
    default:
      return nil
    }
  }

  /// Each keyword's position in `keywords`, one bit per keyword (the table holds fewer than 64).
  private static let positions: [String: UInt64] = {
    precondition(keywords.count < 64, "a keyword table of \(keywords.count) does not fit a 64-bit set")
    return Dictionary(uniqueKeysWithValues: keywords.enumerated().map { ($1.name, UInt64(1) << $0) })
  }()

  /// The set of table keywords among `rules`' members: a schema object holds a few of the table's
  /// keywords (and annotations), so looking its members up beats looking every keyword up in it.
  private static func present(in rules: JSONObject) -> UInt64 {
    rules.members.reduce(0) { set, member in set | (positions[member.key] ?? 0) }
  }

  /// Follows a `$ref` within the document: a URI fragment (RFC 3986: percent-decoded) holding a
  /// JSON pointer (RFC 6901: `~0`/`~1` unescaped, empty tokens kept as empty keys).
  func resolve(_ reference: String) -> JSONValue? {
    references[reference] ?? Self.resolve(reference, in: document)
  }

  private static func resolve(_ reference: String, in document: JSONValue) -> JSONValue? {
    guard reference.hasPrefix("#"), let fragment = PercentEncoding.decode(reference.dropFirst()),
      let pointer = JSONPointer(parsing: fragment)
    else { return nil }
    return pointer.value(in: document)
  }
}

/// One keyword of the table: what it checks, given the validator (to recurse), the value, the
/// schema object it sits in, the place and the depth.
struct Keyword: Sendable {
  let name: String
  let check: @Sendable (SchemaValidator, JSONValue, JSONObject, SchemaPlace, Int) -> SchemaViolation?
}
