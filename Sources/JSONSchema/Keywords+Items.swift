import JSON

extension SchemaValidator {
  /// The keywords that look inside arrays.
  static let arrayKeywords: [Keyword] = [
    Keyword(name: "prefixItems") { value, _, compiler in
      guard let schemas = value.arrayValue else { return nil }
      return .items(.prefixItems(schemas.map(compiler.node(for:))))
    },
    // `items` applies to the items past those `prefixItems` covers.
    Keyword(name: "items") { value, rules, compiler in
      guard value.objectValue != nil || value.boolValue != nil else { return nil }
      let covered = rules["prefixItems"]?.arrayValue?.count ?? 0
      return .items(.items(compiler.node(for: value), after: covered))
    },
    // `minContains` (default 1) and `maxContains` bound how many items match `contains`.
    Keyword(name: "contains") { value, rules, compiler in
      let least = rules["minContains"]?.doubleValue ?? 1
      let most = rules["maxContains"]?.doubleValue.map { ($0, "at most \($0.formatted) item(s) may match contains") }
      let contains = ItemCheck.Contains(
        node: compiler.node(for: value), least: (least, "needs at least \(least.formatted) item(s) matching contains"),
        most: most)
      return .items(.contains(contains))
    },
    Keyword(name: "uniqueItems") { value, _, _ in value.plain == .bool(true) ? .items(.uniqueItems) : nil },
  ]
}

/// What the array keywords check.
enum ItemCheck: Sendable {
  case prefixItems([SchemaNode])
  case items(SchemaNode, after: Int)
  case contains(Contains)
  case uniqueItems

  struct Contains: Sendable {
    let node: SchemaNode
    let least: (count: Double, message: String)
    let most: (count: Double, message: String)?
  }

  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard case .array(let items) = value.plain else { return nil }
    switch self {
    case .prefixItems(let nodes):
      for (index, (item, node)) in zip(items, nodes).enumerated() {
        if let found = node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) { return found }
      }
    case .items(let node, let covered):
      for (index, item) in items.enumerated().dropFirst(covered) {
        if let found = node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) { return found }
      }
    case .contains(let contains):
      var matching = 0
      for (index, item) in items.enumerated()
      where contains.node.failure(of: item, at: place.item(index), depth: depth + 1, compiler) == nil {
        matching += 1
      }
      if Double(matching) < contains.least.count {
        return SchemaFailure(place, "contains", .text(contains.least.message))
      }
      if let most = contains.most, Double(matching) > most.count {
        return SchemaFailure(place, "maxContains", .text(most.message))
      }
    case .uniqueItems:
      for (index, item) in items.enumerated() where items[..<index].contains(where: item.equalsInSchema) {
        return SchemaFailure(place, "uniqueItems", .repeatedItem(index))
      }
    }
    return nil
  }
}

extension Double {
  /// A count as written: `2`, not `2.0`.
  fileprivate var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
