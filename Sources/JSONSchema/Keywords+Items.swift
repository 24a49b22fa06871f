import JSON

extension SchemaValidator {
  /// The keywords that look inside arrays.
  static let arrayKeywords: [Keyword] = [
    Keyword(name: "prefixItems") { value, _, scope in
      guard let schemas = value.arrayValue else { return nil }
      return PrefixItemsCheck(schemas.enumerated().map { scope.node(for: $1, at: String($0)) })
    },
    // `items` applies to the items past those `prefixItems` covers.
    Keyword(name: "items") { value, rules, scope in
      guard value.objectValue != nil || value.boolValue != nil else { return nil }
      let covered = rules["prefixItems"]?.arrayValue?.count ?? 0
      return ItemsCheck(scope.node(for: value), after: covered)
    },
    // `minContains` (default 1) and `maxContains` bound how many items match `contains`.
    Keyword(name: "contains") { value, rules, scope in
      let least = rules["minContains"]?.doubleValue ?? 1
      let most = rules["maxContains"]?.doubleValue.map { ($0, "at most \($0.formatted) item(s) may match contains") }
      return ContainsCheck(
        scope.node(for: value), least: (least, "needs at least \(least.formatted) item(s) matching contains"),
        most: most)
    },
    Keyword(name: "uniqueItems") { value, _, _ in value.plain == .bool(true) ? UniqueItemsCheck() : nil },
  ]
}

/// `prefixItems`: the first items, each against its own schema.
final class PrefixItemsCheck: SchemaCheck {
  let nodes: [SchemaNode]

  init(_ nodes: [SchemaNode]) { self.nodes = nodes }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .array(let items) = value.plain else { return }
    for (index, (item, node)) in zip(items, nodes).enumerated() where !found.isFull {
      node.collect(item, at: place.item(index), depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .array(let items) = value.plain else { return true }
    return zip(items, nodes).allSatisfy { item, node in node.admits(item, depth: depth + 1, compiler) }
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

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard case .array(let items) = value.plain else { return }
    for (index, item) in items.enumerated().dropFirst(covered) where !found.isFull {
      node.collect(item, at: place.item(index), depth: depth + 1, compiler, into: &found)
    }
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .array(let items) = value.plain else { return true }
    return items.dropFirst(covered).allSatisfy { node.admits($0, depth: depth + 1, compiler) }
  }
}

/// `contains`, with `minContains` and `maxContains`: how many items match.
final class ContainsCheck: SingleFailureCheck {
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
    let matching = items.count(where: { node.admits($0, depth: depth + 1, compiler) })
    if Double(matching) < least.count { return SchemaFailure(place, "contains", .text(least.message)) }
    if let most, Double(matching) > most.count { return SchemaFailure(place, "maxContains", .text(most.message)) }
    return nil
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    guard case .array(let items) = value.plain else { return true }
    let matching = Double(items.count(where: { node.admits($0, depth: depth + 1, compiler) }))
    return matching >= least.count && matching <= (most?.count ?? .infinity)
  }
}

/// `uniqueItems: true`.
final class UniqueItemsCheck: SingleFailureCheck {
  func failure(of value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler) -> SchemaFailure? {
    guard let index = repeated(value) else { return nil }
    return SchemaFailure(place, "uniqueItems", .repeatedItem(index))
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool { repeated(value) == nil }

  /// The first item that repeats an earlier one.
  private func repeated(_ value: JSONValue) -> Int? {
    guard case .array(let items) = value.plain else { return nil }
    return items.indices.first { index in items[..<index].contains(where: items[index].equalsInSchema) }
  }
}

extension Double {
  /// A count as written: `2`, not `2.0`.
  fileprivate var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
