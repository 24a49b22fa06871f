import JSON

extension SchemaValidator {
  /// The keywords that look inside objects and arrays.
  static let objectKeywords: [Keyword] = [
    Keyword(name: "required") { _, value, rules, place, _ in
      guard case .object(let object) = value.plain else { return nil }
      for name in (rules["required"]?.arrayValue ?? []).compactMap(\.stringValue) where object[name] == nil {
        return SchemaViolation(place.member(name), "required", "required")
      }
      return nil
    },
    Keyword(name: "properties") { validator, value, rules, place, depth in
      guard case .object(let object) = value.plain, let properties = rules["properties"]?.objectValue else {
        return nil
      }
      for member in object {
        guard let schema = properties[member.key] else { continue }
        if let found = validator.check(member.value, schema, place.member(member.key), depth: depth + 1) {
          return found
        }
      }
      return nil
    },
    Keyword(name: "patternProperties") { validator, value, rules, place, depth in
      guard case .object(let object) = value.plain, let patterns = rules["patternProperties"]?.objectValue else {
        return nil
      }
      for member in object {
        for entry in patterns.members where Pattern.compiled(entry.key)?.matches(member.key) == true {
          if let found = validator.check(member.value, entry.value, place.member(member.key), depth: depth + 1) {
            return found
          }
        }
      }
      return nil
    },
    Keyword(name: "additionalProperties") { validator, value, rules, place, depth in
      guard case .object(let object) = value.plain, let extra = rules["additionalProperties"] else { return nil }
      for member in object where isAdditional(member.key, in: rules) {
        if extra.plain == .bool(false) {
          return SchemaViolation(place.member(member.key), "additionalProperties", "unknown member \"\(member.key)\"")
        }
        if let found = validator.check(member.value, extra, place.member(member.key), depth: depth + 1) {
          return found
        }
      }
      return nil
    },
  ]

  /// The keywords about which members an object has.
  static let memberNameKeywords: [Keyword] = [
    Keyword(name: "propertyNames") { validator, value, rules, place, depth in
      guard case .object(let object) = value.plain, let schema = rules["propertyNames"] else { return nil }
      for member in object {
        if let found = validator.check(.string(member.key), schema, place.member(member.key), depth: depth + 1) {
          return SchemaViolation(place.member(member.key), "propertyNames", "the member name \(found.message)")
        }
      }
      return nil
    },
    Keyword(name: "dependentRequired") { _, value, rules, place, _ in
      guard case .object(let object) = value.plain, let dependencies = rules["dependentRequired"]?.objectValue else {
        return nil
      }
      for dependency in dependencies.members where object[dependency.key] != nil {
        for name in (dependency.value.arrayValue ?? []).compactMap(\.stringValue) where object[name] == nil {
          return SchemaViolation(place.member(name), "dependentRequired", "required when \(dependency.key) is present")
        }
      }
      return nil
    },
    Keyword(name: "dependentSchemas") { validator, value, rules, place, depth in
      guard case .object(let object) = value.plain, let dependencies = rules["dependentSchemas"]?.objectValue else {
        return nil
      }
      for dependency in dependencies.members where object[dependency.key] != nil {
        if let found = validator.check(value, dependency.value, place, depth: depth + 1) { return found }
      }
      return nil
    },
  ]

  /// A member neither `properties` names nor a `patternProperties` pattern matches.
  private static func isAdditional(_ key: String, in rules: JSONObject) -> Bool {
    guard rules["properties"]?.objectValue?[key] == nil else { return false }
    let patterns = rules["patternProperties"]?.objectValue?.keys ?? []
    return !patterns.contains { Pattern.compiled($0)?.matches(key) == true }
  }

  static let arrayKeywords: [Keyword] = [
    Keyword(name: "prefixItems") { validator, value, rules, place, depth in
      guard case .array(let items) = value.plain, let schemas = rules["prefixItems"]?.arrayValue else { return nil }
      for (index, (item, schema)) in zip(items, schemas).enumerated() {
        if let found = validator.check(item, schema, place.item(index), depth: depth + 1) { return found }
      }
      return nil
    },
    // `items` applies to the items past those `prefixItems` covers.
    Keyword(name: "items") { validator, value, rules, place, depth in
      guard case .array(let items) = value.plain, let schema = rules["items"],
        schema.objectValue != nil || schema.boolValue != nil
      else { return nil }
      let covered = rules["prefixItems"]?.arrayValue?.count ?? 0
      for (index, item) in items.enumerated().dropFirst(covered) {
        if let found = validator.check(item, schema, place.item(index), depth: depth + 1) { return found }
      }
      return nil
    },
    // `minContains` (default 1) and `maxContains` bound how many items match `contains`.
    Keyword(name: "contains") { validator, value, rules, place, depth in
      guard case .array(let items) = value.plain, let schema = rules["contains"] else { return nil }
      let matching = items.enumerated().filter { index, item in
        validator.check(item, schema, place.item(index), depth: depth + 1) == nil
      }.count
      let least = rules["minContains"]?.doubleValue ?? 1
      if Double(matching) < least {
        return SchemaViolation(place, "contains", "needs at least \(least.formatted) item(s) matching contains")
      }
      if let most = rules["maxContains"]?.doubleValue, Double(matching) > most {
        return SchemaViolation(place, "maxContains", "at most \(most.formatted) item(s) may match contains")
      }
      return nil
    },
    Keyword(name: "uniqueItems") { _, value, rules, place, _ in
      guard case .array(let items) = value.plain, rules["uniqueItems"]?.plain == .bool(true) else { return nil }
      for (index, item) in items.enumerated() where items[..<index].contains(where: item.equalsInSchema) {
        return SchemaViolation(place, "uniqueItems", "items must be unique (item \(index) repeats an earlier one)")
      }
      return nil
    },
  ]
}

extension Double {
  /// A count as written: `2`, not `2.0`.
  fileprivate var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
