import JSON

/// Checks JSON values against JSON Schema, in the keyword subset that draft-07 and 2020-12 read the
/// same way (the subset Schemas/ is written in): `$ref` (JSON pointers into one document), `type`,
/// `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`, `minItems`,
/// `maxItems`, `uniqueItems`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`,
/// `minProperties`, `oneOf`, `anyOf`, `allOf`, `not`. Annotations (`description`, `format`,
/// `examples`, `default`, `x-*`) are ignored. Reports the first violation, with its path.
public struct SchemaValidator: Sendable {
  /// The document `$ref`s point into (`#/components/schemas/Card`, `#/definitions/X`).
  public let document: JSONValue

  public init(document: JSONValue) { self.document = document }

  /// The first way `value` breaks `schema`, or nil when it conforms.
  public func violation(of value: JSONValue, against schema: JSONValue, at path: String) -> SchemaViolation? {
    check(value, schema, path, depth: 0)
  }

  private static let maxDepth = 64

  private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, depth: Int) -> SchemaViolation? {
    guard depth < Self.maxDepth else {
      return SchemaViolation(path: path, rule: "depth", message: "nested too deeply to check")
    }
    switch schema {
    case .bool(true): return nil
    case .bool(false): return SchemaViolation(path: path, rule: "false", message: "no value is allowed here")
    case .object(let rules):
      if let reference = rules["$ref"]?.stringValue {
        guard let target = resolve(reference) else {
          return SchemaViolation(
            path: path, rule: "$ref", message: "the schema refers to \(reference), which is missing")
        }
        if let found = check(value, target, path, depth: depth + 1) { return found }
      }
      for keyword in Self.keywords {
        if rules[keyword.name] != nil, let found = keyword.check(self, value, rules, path, depth) { return found }
      }
      return nil
    default:
      return nil
    }
  }

  /// Follows a local JSON pointer (`#/a/b`), with `~0`/`~1` escapes.
  private func resolve(_ reference: String) -> JSONValue? {
    guard reference.hasPrefix("#") else { return nil }
    var node = document
    for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
      let key = String(token).unescapingJSONPointer
      switch node {
      case .object(let object):
        guard let next = object[key] else { return nil }
        node = next
      case .array(let items):
        guard let index = Int(key), items.indices.contains(index) else { return nil }
        node = items[index]
      default:
        return nil
      }
    }
    return node
  }

  // MARK: - Keywords

  private struct Keyword: Sendable {
    let name: String
    let check: @Sendable (SchemaValidator, JSONValue, JSONObject, String, Int) -> SchemaViolation?
  }

  private enum Side { case atLeast, atMost }

  /// What the size keywords measure; nil for a value of another type.
  private static let memberCount: @Sendable (JSONValue) -> Double? = { $0.objectValue.map { Double($0.count) } }
  private static let itemCount: @Sendable (JSONValue) -> Double? = { $0.arrayValue.map { Double($0.count) } }
  private static let characterCount: @Sendable (JSONValue) -> Double? = { $0.stringValue.map { Double($0.count) } }

  /// A keyword that bounds a size or a number: `measure` reads it off the value (nil: the keyword
  /// does not apply to that type), and a measure below (`atLeast`) or above (`atMost`) the schema's
  /// limit is a violation, worded by `message` from the limit as written and the measure.
  private static func bound(
    _ name: String, _ side: Side, _ measure: @escaping @Sendable (JSONValue) -> Double?,
    message: @escaping @Sendable (_ limit: String, _ measured: Double) -> String
  ) -> Keyword {
    Keyword(name: name) { _, value, rules, path, _ in
      guard let measured = measure(value), let limit = rules[name], let bound = limit.doubleValue,
        side == .atLeast ? measured < bound : measured > bound
      else { return nil }
      return SchemaViolation(path: path, rule: name, message: message(limit.jsonString, measured))
    }
  }

  private static let keywords: [Keyword] = [
    Keyword(name: "type") { _, value, rules, path, _ in
      let allowed = (rules["type"]?.arrayValue ?? [rules["type"] ?? .null]).compactMap(\.stringValue)
      guard !allowed.contains(where: { matches(value, type: $0) }) else { return nil }
      return SchemaViolation(
        path: path, rule: "type", message: "expected \(allowed.joined(separator: " or ")), got \(value.typeName)")
    },
    Keyword(name: "enum") { _, value, rules, path, _ in
      let options = rules["enum"]?.arrayValue ?? []
      guard !options.contains(value) else { return nil }
      let listed = options.map(\.jsonString).joined(separator: ", ")
      return SchemaViolation(path: path, rule: "enum", message: "must be one of \(listed), got \(value.jsonString)")
    },
    Keyword(name: "const") { _, value, rules, path, _ in
      guard let constant = rules["const"], constant != value else { return nil }
      return SchemaViolation(path: path, rule: "const", message: "must be \(constant.jsonString)")
    },
    Keyword(name: "required") { _, value, rules, path, _ in
      guard case .object(let object) = value else { return nil }
      for name in (rules["required"]?.arrayValue ?? []).compactMap(\.stringValue) where object[name] == nil {
        return SchemaViolation(path: join(path, name), rule: "required", message: "required")
      }
      return nil
    },
    Keyword(name: "properties") { validator, value, rules, path, depth in
      guard case .object(let object) = value, let properties = rules["properties"]?.objectValue else { return nil }
      for member in object {
        guard let schema = properties[member.key] else { continue }
        if let found = validator.check(member.value, schema, join(path, member.key), depth: depth + 1) { return found }
      }
      return nil
    },
    Keyword(name: "additionalProperties") { validator, value, rules, path, depth in
      guard case .object(let object) = value, let extra = rules["additionalProperties"] else { return nil }
      let declared = rules["properties"]?.objectValue
      for member in object where declared?[member.key] == nil {
        if extra == .bool(false) {
          return SchemaViolation(
            path: join(path, member.key), rule: "additionalProperties", message: "unknown member \"\(member.key)\"")
        }
        if let found = validator.check(member.value, extra, join(path, member.key), depth: depth + 1) { return found }
      }
      return nil
    },
    bound("minProperties", .atLeast, memberCount) { limit, _ in
      "needs at least \(limit) member(s)"
    },
    Keyword(name: "items") { validator, value, rules, path, depth in
      guard case .array(let items) = value, let schema = rules["items"],
        schema.objectValue != nil || schema.boolValue != nil
      else { return nil }
      for (index, item) in items.enumerated() {
        if let found = validator.check(item, schema, "\(path)[\(index)]", depth: depth + 1) { return found }
      }
      return nil
    },
    bound("minItems", .atLeast, itemCount) { limit, _ in
      "needs at least \(limit) item(s)"
    },
    bound("maxItems", .atMost, itemCount) { "at most \($0) item(s), got \(Int($1))" },
    Keyword(name: "uniqueItems") { _, value, rules, path, _ in
      guard case .array(let items) = value, rules["uniqueItems"] == .bool(true), Set(items).count != items.count else {
        return nil
      }
      return SchemaViolation(path: path, rule: "uniqueItems", message: "items must be unique")
    },
    bound("minimum", .atLeast, \.doubleValue) { limit, _ in "must be at least \(limit)" },
    bound("maximum", .atMost, \.doubleValue) { limit, _ in "must be at most \(limit)" },
    bound("minLength", .atLeast, characterCount) { limit, _ in
      "needs at least \(limit) character(s)"
    },
    bound("maxLength", .atMost, characterCount) { limit, _ in
      "at most \(limit) character(s)"
    },
    Keyword(name: "pattern") { _, value, rules, path, _ in
      guard case .string(let text) = value, let source = rules["pattern"]?.stringValue else { return nil }
      guard let pattern = Pattern.compiled(source) else {
        return SchemaViolation(path: path, rule: "pattern", message: "the schema's pattern \(source) cannot be read")
      }
      return pattern.matches(text) ? nil : SchemaViolation(path: path, rule: "pattern", message: "must match \(source)")
    },
    Keyword(name: "allOf") { validator, value, rules, path, depth in
      for schema in rules["allOf"]?.arrayValue ?? [] {
        if let found = validator.check(value, schema, path, depth: depth + 1) { return found }
      }
      return nil
    },
    Keyword(name: "anyOf") { validator, value, rules, path, depth in
      let options = rules["anyOf"]?.arrayValue ?? []
      let failures = options.compactMap { validator.check(value, $0, path, depth: depth + 1) }
      guard failures.count == options.count, let closest = failures.max(by: { $0.closeness < $1.closeness }) else {
        return nil
      }
      return closest.path == path
        ? SchemaViolation(path: path, rule: "anyOf", message: "matches none of the allowed shapes")
        : closest
    },
    Keyword(name: "oneOf") { validator, value, rules, path, depth in
      let options = rules["oneOf"]?.arrayValue ?? []
      let failures = options.map { validator.check(value, $0, path, depth: depth + 1) }
      let matches = failures.filter { $0 == nil }.count
      if matches == 1 { return nil }
      if matches > 1 {
        return SchemaViolation(path: path, rule: "oneOf", message: "matches more than one of the allowed shapes")
      }
      // The variant that got deepest before failing is the one the host most likely meant.
      let closest = failures.compactMap { $0 }.max(by: { $0.closeness < $1.closeness })
      if let closest, closest.path != path { return closest }
      return SchemaViolation(path: path, rule: "oneOf", message: "matches none of the allowed shapes")
    },
    Keyword(name: "not") { validator, value, rules, path, depth in
      guard let schema = rules["not"], validator.check(value, schema, path, depth: depth + 1) == nil else { return nil }
      return SchemaViolation(path: path, rule: "not", message: "this value is not allowed here")
    },
  ]

  private static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value.plain) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
    case ("integer", .int), ("number", .int), ("number", .double): return true
    case ("integer", .double(let number)): return number.rounded() == number
    default: return false
    }
  }

  private static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }
}

extension SchemaViolation {
  /// How far a value got into a variant before failing: a mismatched discriminator (`const`, `enum`,
  /// `type`) means "another variant", anything else means "this variant, with a mistake inside";
  /// then deeper is closer.
  fileprivate var closeness: (Int, Int) {
    let wrongVariant = ["const", "enum", "type"].contains(rule)
    let depth = path.reduce(0) { $0 + ($1 == "." || $1 == "[" ? 1 : 0) }
    return (wrongVariant ? 0 : 1, depth)
  }
}
