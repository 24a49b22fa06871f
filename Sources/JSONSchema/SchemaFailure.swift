import JSON

/// A way a value breaks a schema, kept cheap: `anyOf`, `oneOf`, `not`, `if` and `contains` try
/// schemas whose failures are mostly thrown away, so the path, pointer and message are spelled out
/// (`violation`) only for the one reported.
struct SchemaFailure: Sendable {
  let place: SchemaPlace
  /// The keyword that failed.
  let rule: String
  let message: Message

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

    var text: String {
      switch self {
      case .text(let text): text
      case .typeName(let text, let value): text + value.typeName
      case .json(let text, let value): text + value.jsonString
      case .count(let text, let count): text + String(count)
      case .unknownMember(let key): "unknown member \"\(key)\""
      case .repeatedItem(let index): "items must be unique (item \(index) repeats an earlier one)"
      case .memberName(let failure): "the member name \(failure.message.text)"
      }
    }
  }

  var violation: SchemaViolation {
    SchemaViolation(path: place.path, rule: rule, message: message.text, pointer: place.pointer)
  }

  /// How far a value got into a variant before failing: a mismatched discriminator (`const`, `enum`,
  /// `type`) means "another variant", anything else means "this variant, with a mistake inside";
  /// then deeper is closer.
  var closeness: (Int, Int) {
    let wrongVariant = rule == "const" || rule == "enum" || rule == "type"
    return (wrongVariant ? 0 : 1, place.tokenCount)
  }
}
