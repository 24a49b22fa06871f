import JSON

extension SchemaValidator {
  /// The keywords that look inside objects.
  static let objectKeywords: [Keyword] = [
    Keyword(name: "required") { value, _, _ in
      let names = (value.arrayValue ?? []).compactMap(\.stringValue)
      return names.isEmpty ? nil : RequiredCheck(names)
    },
    Keyword(name: "properties") { value, _, scope in
      guard let properties = value.objectValue else { return nil }
      // Each name's schema is the one the object's lookup finds, as names are matched by lookup.
      var nodes: [String: SchemaNode] = [:]
      for key in properties.keys where nodes[key] == nil {
        if let schema = properties[key] { nodes[key] = scope.node(for: schema, at: key) }
      }
      return PropertiesCheck(nodes)
    },
    Keyword(name: "patternProperties") { value, _, scope in
      guard let patterns = value.objectValue else { return nil }
      // A pattern that cannot be read matches no name.
      let compiled = patterns.members.compactMap { entry in
        Pattern.compiled(entry.key).map { ($0, scope.node(for: entry.value, at: entry.key)) }
      }
      return PatternPropertiesCheck(compiled)
    },
    Keyword(name: "additionalProperties") { value, rules, scope in
      let named = Set(rules["properties"]?.objectValue?.keys ?? [])
      let patterns = (rules["patternProperties"]?.objectValue?.keys ?? []).compactMap(Pattern.compiled)
      let schema = value.plain == .bool(false) ? nil : scope.node(for: value)
      return AdditionalPropertiesCheck(named: named, patterns: patterns, schema: schema)
    },
  ]

  /// The keywords about which members an object has.
  static let memberNameKeywords: [Keyword] = [
    Keyword(name: "propertyNames") { value, _, scope in PropertyNamesCheck(scope.node(for: value)) },
    Keyword(name: "dependentRequired") { value, _, _ in
      guard let dependencies = value.objectValue else { return nil }
      return DependentRequiredCheck(
        dependencies.members.map { dependency in
          DependentRequiredCheck.Dependency(
            member: dependency.key, names: (dependency.value.arrayValue ?? []).compactMap(\.stringValue),
            message: "required when \(dependency.key) is present")
        })
    },
    Keyword(name: "dependentSchemas") { value, _, scope in
      guard let dependencies = value.objectValue else { return nil }
      return DependentSchemasCheck(dependencies.members.map { ($0.key, scope.node(for: $0.value, at: $0.key)) })
    },
  ]
}

/// `required`.
final class RequiredCheck: SchemaCheck {
  let names: [String]

  init(_ names: [String]) { self.names = names }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for name in names where object[name] == nil {
      found.add(SchemaFailure(place.member(name), "required", .text("required")))
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    return names.allSatisfy { object[$0] != nil }
  }
}

/// `properties`: each member the schema names, in the value's order, against its schema.
final class PropertiesCheck: SchemaCheck {
  let names: [String]
  let nodes: [SchemaNode]
  /// Names by position, for a schema naming more than a few: as for `JSONObject`, a short list is
  /// searched faster than a name is hashed.
  private let positions: [String: Int]?

  init(_ nodes: [String: SchemaNode]) {
    names = Array(nodes.keys)
    self.nodes = names.compactMap { nodes[$0] }
    positions = names.count > 16 ? Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }) : nil
  }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for member in object.members where !found.isFull {
      guard let position = position(of: member.key) else { continue }
      nodes[position].collect(member.value, at: place.member(member.key), depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    for member in object.members {
      guard let position = position(of: member.key) else { continue }
      if !nodes[position].admits(member.value, depth: depth + 1, compiler) { return false }
    }
    return true
  }

  private func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    return names.firstIndex(of: key)
  }
}

/// `patternProperties`: each member against the schema of every pattern its name matches.
final class PatternPropertiesCheck: SchemaCheck {
  let patterns: [(Pattern, SchemaNode)]

  init(_ patterns: [(Pattern, SchemaNode)]) { self.patterns = patterns }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for member in object.members {
      for (pattern, node) in patterns where !found.isFull && pattern.matches(member.key) {
        node.collect(member.value, at: place.member(member.key), depth: depth + 1, compiler, into: &found)
      }
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    for member in object.members {
      for (pattern, node) in patterns where pattern.matches(member.key) {
        if !node.admits(member.value, depth: depth + 1, compiler) { return false }
      }
    }
    return true
  }
}

/// `additionalProperties`: a member neither `properties` names nor a `patternProperties` pattern
/// matches is refused (`false`: no schema) or checked against `schema`.
final class AdditionalPropertiesCheck: SchemaCheck {
  let named: Set<String>
  let patterns: [Pattern]
  let schema: SchemaNode?

  init(named: Set<String>, patterns: [Pattern], schema: SchemaNode?) {
    self.named = named
    self.patterns = patterns
    self.schema = schema
  }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for member in object.members where !found.isFull && !covers(member.key) {
      guard let schema else {
        found.add(SchemaFailure(place.member(member.key), "additionalProperties", .unknownMember(member.key)))
        continue
      }
      schema.collect(member.value, at: place.member(member.key), depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    for member in object.members where !covers(member.key) {
      guard let schema, schema.admits(member.value, depth: depth + 1, compiler) else { return false }
    }
    return true
  }

  private func covers(_ key: String) -> Bool { named.contains(key) || patterns.contains { $0.matches(key) } }
}

/// `propertyNames`: each member's name, as a string, against the schema.
final class PropertyNamesCheck: SchemaCheck {
  let node: SchemaNode

  init(_ node: SchemaNode) { self.node = node }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for member in object.members where !found.isFull {
      let name = place.member(member.key)
      if let failure = node.failure(of: .string(member.key), at: name, depth: depth + 1, compiler) {
        found.add(SchemaFailure(name, "propertyNames", .memberName(failure)))
      }
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    return object.members.allSatisfy { node.admits(.string($0.key), depth: depth + 1, compiler) }
  }
}

/// `dependentRequired`: when a member is present, so must others be.
final class DependentRequiredCheck: SchemaCheck {
  struct Dependency: Sendable {
    let member: String
    let names: [String]
    let message: String
  }

  let dependencies: [Dependency]

  init(_ dependencies: [Dependency]) { self.dependencies = dependencies }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for dependency in dependencies where object[dependency.member] != nil {
      for name in dependency.names where object[name] == nil {
        found.add(SchemaFailure(place.member(name), "dependentRequired", .text(dependency.message)))
      }
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    return dependencies.allSatisfy { dependency in
      object[dependency.member] == nil || dependency.names.allSatisfy { object[$0] != nil }
    }
  }
}

/// `dependentSchemas`: when a member is present, the whole value against a schema.
final class DependentSchemasCheck: SchemaCheck {
  let dependencies: [(String, SchemaNode)]

  init(_ dependencies: [(String, SchemaNode)]) { self.dependencies = dependencies }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .object(let object) = value.plain else { return }
    for (member, node) in dependencies where !found.isFull && object[member] != nil {
      node.collect(value, at: place, depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .object(let object) = value.plain else { return true }
    return dependencies.allSatisfy { member, node in
      object[member] == nil || node.admits(value, depth: depth + 1, compiler)
    }
  }
}
