import JSON

extension SchemaValidator {
  /// The keywords that look inside arrays.
  static let arrayKeywords: [Keyword] = [
    Keyword(name: "prefixItems") { value, _, compiler in
      guard let schemas = value.arrayValue else { return nil }
      return PrefixItemsCheck(schemas.map(compiler.node(for:)))
    },
    // `items` applies to the items past those `prefixItems` covers.
    Keyword(name: "items") { value, rules, compiler in
      guard value.objectValue != nil || value.boolValue != nil else { return nil }
      let covered = rules["prefixItems"]?.arrayValue?.count ?? 0
      return ItemsCheck(compiler.node(for: value), after: covered)
    },
    // `minContains` (default 1) and `maxContains` bound how many items match `contains`.
    Keyword(name: "contains") { value, rules, compiler in
      let least = rules["minContains"]?.doubleValue ?? 1
      let most = rules["maxContains"]?.doubleValue.map { ($0, "at most \($0.formatted) item(s) may match contains") }
      return ContainsCheck(
        compiler.node(for: value), least: (least, "needs at least \(least.formatted) item(s) matching contains"),
        most: most)
    },
    Keyword(name: "uniqueItems") { value, _, _ in value.plain == .bool(true) ? UniqueItemsCheck() : nil },
  ]
}

/// `prefixItems`: the first items, each against its own schema.
final class PrefixItemsCheck: SchemaCheck {
  let nodes: [SchemaNode]

  init(_ nodes: [SchemaNode]) { self.nodes = nodes }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .array(let items) = value.plain else { return nil }
    for (index, (item, node)) in zip(items, nodes).enumerated() {
      if let found = node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) { return found }
    }
    return nil
  }
}

/// `items`: the items past the `covered` first ones.
final class ItemsCheck: SchemaCheck {
  let node: SchemaNode
  let covered: Int

  init(_ node: SchemaNode, after covered: Int) {
    self.node = node
    self.covered = covered
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .array(let items) = value.plain else { return nil }
    for (index, item) in items.enumerated().dropFirst(covered) {
      if let found = node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) { return found }
    }
    return nil
  }
}

/// `contains`, with `minContains` and `maxContains`: how many items match.
final class ContainsCheck: SchemaCheck {
  let node: SchemaNode
  let least: (count: Double, message: String)
  let most: (count: Double, message: String)?

  init(_ node: SchemaNode, least: (count: Double, message: String), most: (count: Double, message: String)?) {
    self.node = node
    self.least = least
    self.most = most
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .array(let items) = value.plain else { return nil }
    var matching = 0
    for (index, item) in items.enumerated()
    where node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) == nil {
      matching += 1
    }
    if Double(matching) < least.count { return SchemaFailure(place, "contains", .text(least.message)) }
    if let most, Double(matching) > most.count { return SchemaFailure(place, "maxContains", .text(most.message)) }
    return nil
  }
}

/// `uniqueItems: true`.
final class UniqueItemsCheck: SchemaCheck {
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .array(let items) = value.plain else { return nil }
    for (index, item) in items.enumerated() where items[..<index].contains(where: item.equalsInSchema) {
      return SchemaFailure(place, "uniqueItems", .repeatedItem(index))
    }
    return nil
  }
}

extension Double {
  /// A count as written: `2`, not `2.0`.
  fileprivate var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
