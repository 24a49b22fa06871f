import JSON

/// A way a value breaks a schema, kept cheap: `anyOf`, `oneOf`, `not`, `if` and `contains` try
/// schemas whose failures are mostly thrown away, so the path, pointer and message are spelled out
/// (`violation`) only for the one reported.
struct SchemaFailure: Sendable {
  let place: SchemaPlace
  /// The keyword that failed.
  let rule: String
  let message: Message
  /// Where the keyword that failed sits in the schema document (`#/components/schemas/X/...`), set
  /// by the node that holds it.
  var schemaPath: String?

  init(_ place: SchemaPlace, _ rule: String, _ message: Message) {
    self.place = place
    self.rule = rule
    self.message = message
  }

  /// A message in the parts it is made of.
  enum Message: Sendable {
    case text(String)
    /// The text, then the value's JSON type.
    case typeName(String, of: JSONValue)
    /// The text, then the value as JSON.
    case json(String, of: JSONValue)
    /// The text, then a count.
    case count(String, Int)
    case unknownMember(String)
    case repeatedItem(Int)
    /// A member name's own failure against `propertyNames`.
    indirect case memberName(SchemaFailure)

    /// A value quoted in a message, cut to a line's length: a payload's value can be a page long.
    private static func shortened(_ json: String) -> String {
      json.count <= 80 ? json : json.prefix(77) + "…"
    }

    var text: String {
      switch self {
      case .text(let text): text
      case .typeName(let text, let value): text + value.typeName
      case .json(let text, let value): text + Self.shortened(value.jsonString)
      case .count(let text, let count): text + String(count)
      case .unknownMember(let key): "unknown member \"\(key)\""
      case .repeatedItem(let index): "items must be unique (item \(index) repeats an earlier one)"
      case .memberName(let failure): "the member name \(failure.message.text)"
      }
    }
  }

  var violation: SchemaViolation {
    SchemaViolation(
      path: place.path, rule: rule, message: message.text, pointer: place.pointer, schemaPath: schemaPath ?? "#")
  }

  /// How far a value got into a variant before failing: a mismatched discriminator (`const`, `enum`,
  /// `type`) means "another variant", anything else means "this variant, with a mistake inside";
  /// then deeper is closer.
  var closeness: (Int, Int) {
    let wrongVariant = rule == "const" || rule == "enum" || rule == "type"
    return (wrongVariant ? 0 : 1, place.tokenCount)
  }
}

/// The failures found in one value so far, in the order the keywords are tried, up to `limit`: a
/// check stops looking once it is full, so asking for one costs what the first did.
struct SchemaFailures: Sendable {
  private(set) var list: [SchemaFailure] = []
  let limit: Int

  init(limit: Int) { self.limit = max(limit, 1) }

  var count: Int { list.count }
  var isFull: Bool { list.count >= limit }
  var first: SchemaFailure? { list.first }
  /// Room left, for a search whose failures may be thrown away (an `anyOf` option).
  var room: Int { limit - list.count }

  mutating func add(_ failure: SchemaFailure) {
    if !isFull { list.append(failure) }
  }

  mutating func add(_ failures: SchemaFailures) {
    for failure in failures.list { add(failure) }
  }

  /// Gives the failures from `start` on that no deeper schema placed the keyword's location.
  mutating func place(from start: Int, at schemaPath: String) {
    for index in list.indices.dropFirst(start) where list[index].schemaPath == nil {
      list[index].schemaPath = schemaPath
    }
  }
}
