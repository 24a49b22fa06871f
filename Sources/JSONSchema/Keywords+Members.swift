import JSON

extension SchemaValidator {
  /// The keywords that look inside objects.
  static let objectKeywords: [Keyword] = [
    Keyword(name: "required") { value, _, _ in
      let names = (value.arrayValue ?? []).compactMap(\.stringValue)
      return names.isEmpty ? nil : .members(.required(names))
    },
    Keyword(name: "properties") { value, _, compiler in
      guard let properties = value.objectValue else { return nil }
      // Each name's schema is the one the object's lookup finds, as names are matched by lookup.
      var nodes: [String: SchemaNode] = [:]
      for key in properties.keys where nodes[key] == nil {
        if let schema = properties[key] { nodes[key] = compiler.node(for: schema) }
      }
      return .members(.properties(nodes))
    },
    Keyword(name: "patternProperties") { value, _, compiler in
      guard let patterns = value.objectValue else { return nil }
      // A pattern that cannot be read matches no name.
      let compiled = patterns.members.compactMap { entry in
        Pattern.compiled(entry.key).map { ($0, compiler.node(for: entry.value)) }
      }
      return .members(.patternProperties(compiled))
    },
    Keyword(name: "additionalProperties") { value, rules, compiler in
      let named = Set(rules["properties"]?.objectValue?.keys ?? [])
      let patterns = (rules["patternProperties"]?.objectValue?.keys ?? []).compactMap(Pattern.compiled)
      let schema = value.plain == .bool(false) ? nil : compiler.node(for: value)
      return .members(.additionalProperties(MemberCheck.Additional(named: named, patterns: patterns, schema: schema)))
    },
  ]

  /// The keywords about which members an object has.
  static let memberNameKeywords: [Keyword] = [
    Keyword(name: "propertyNames") { value, _, compiler in .members(.propertyNames(compiler.node(for: value))) },
    Keyword(name: "dependentRequired") { value, _, _ in
      guard let dependencies = value.objectValue else { return nil }
      return .members(
        .dependentRequired(
          dependencies.members.map { dependency in
            MemberCheck.Dependency(
              member: dependency.key, names: (dependency.value.arrayValue ?? []).compactMap(\.stringValue),
              message: "required when \(dependency.key) is present")
          }))
    },
    Keyword(name: "dependentSchemas") { value, _, compiler in
      guard let dependencies = value.objectValue else { return nil }
      return .members(.dependentSchemas(dependencies.members.map { ($0.key, compiler.node(for: $0.value)) }))
    },
  ]
}

/// What the object keywords check, each over the value's members in their order.
enum MemberCheck: Sendable {
  case required([String])
  case properties([String: SchemaNode])
  case patternProperties([(Pattern, SchemaNode)])
  case additionalProperties(Additional)
  case propertyNames(SchemaNode)
  case dependentRequired([Dependency])
  case dependentSchemas([(String, SchemaNode)])

  /// `additionalProperties`: a member neither `properties` names nor a `patternProperties` pattern
  /// matches is refused (`false`, nil here) or checked against `schema`.
  struct Additional: Sendable {
    let named: Set<String>
    let patterns: [Pattern]
    let schema: SchemaNode?

    func covers(_ key: String) -> Bool { named.contains(key) || patterns.contains { $0.matches(key) } }
  }

  /// `dependentRequired`: when `member` is present, so must `names` be.
  struct Dependency: Sendable {
    let member: String
    let names: [String]
    let message: String
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .object(let object) = value.plain else { return nil }
    switch self {
    case .required(let names):
      for name in names where object[name] == nil {
        return SchemaFailure(place.member(name), "required", .text("required"))
      }
    case .properties(let nodes):
      for member in object.members {
        guard let node = nodes[member.key] else { continue }
        if let found = node.failure(of: member.value, at: place.member(member.key), depth: depth + 1, compiler) {
          return found
        }
      }
    case .patternProperties(let patterns):
      for member in object.members {
        for (pattern, node) in patterns where pattern.matches(member.key) {
          if let found = node.failure(of: member.value, at: place.member(member.key), depth: depth + 1, compiler) {
            return found
          }
        }
      }
    case .additionalProperties(let additional):
      for member in object.members where !additional.covers(member.key) {
        guard let node = additional.schema else {
          return SchemaFailure(place.member(member.key), "additionalProperties", .unknownMember(member.key))
        }
        if let found = node.failure(of: member.value, at: place.member(member.key), depth: depth + 1, compiler) {
          return found
        }
      }
    case .propertyNames(let node):
      for member in object.members {
        let name = place.member(member.key)
        if let found = node.failure(of: .string(member.key), at: name, depth: depth + 1, compiler) {
          return SchemaFailure(name, "propertyNames", .memberName(found))
        }
      }
    case .dependentRequired(let dependencies):
      for dependency in dependencies where object[dependency.member] != nil {
        for name in dependency.names where object[name] == nil {
          return SchemaFailure(place.member(name), "dependentRequired", .text(dependency.message))
        }
      }
    case .dependentSchemas(let dependencies):
      for (member, node) in dependencies where object[member] != nil {
        if let found = node.failure(of: value, at: place, depth: depth + 1, compiler) { return found }
      }
    }
    return nil
  }
}
