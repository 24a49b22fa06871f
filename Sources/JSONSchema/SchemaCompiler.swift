import JSON
import Synchronization

/// Compiles schemas to `SchemaNode`s, and keeps what one validator compiled: a slot per `$ref`
/// (its target compiled on first use) and the schemas callers passed.
final class SchemaCompiler: Sendable {
  /// The document `$ref`s point into.
  let document: JSONValue
  private let slots = Mutex<[String: ReferenceSlot]>([:])
  private let passed = Mutex<[Int: Passed]>([:])

  /// A schema a caller passed, kept with its compiled node.
  private struct Passed: Sendable {
    let schema: JSONValue
    let node: SchemaNode
  }

  /// Callers pass a few schemas again and again (a method's params); past this many, one is compiled per call.
  private static let passedLimit = 256

  init(document: JSONValue) { self.document = document }

  /// `schema`, which sits at `location` in the document (the root for a schema a caller passed).
  func node(for schema: JSONValue, at location: JSONPointer = JSONPointer()) -> SchemaNode {
    switch schema.plain {
    case .bool(true): return .anything
    case .bool(false): return SchemaNode(.nothing(schemaPath: SchemaScope.fragment(location)))
    case .object(let rules):
      var checks: [SchemaNode.Located] = []
      if let reference = rules["$ref"]?.stringValue {
        checks.append(
          SchemaNode.Located(
            check: ReferenceCheck(slot(for: reference)), schemaPath: SchemaScope.fragment(location.appending("$ref")),
            checksType: false))
      }
      for keyword in SchemaValidator.keywords {
        guard let value = rules[keyword.name] else { continue }
        let scope = SchemaScope(compiler: self, schema: location, keyword: keyword.name)
        if let check = keyword.compile(value, rules, scope) {
          checks.append(
            SchemaNode.Located(
              check: check, schemaPath: SchemaScope.fragment(scope.location), checksType: keyword.name == "type"))
        }
      }
      return checks.isEmpty ? .anything : SchemaNode(.checks(checks))
    default:
      return .anything
    }
  }

  func slot(for reference: String) -> ReferenceSlot {
    slots.withLock { slots in
      if let known = slots[reference] { return known }
      let slot = ReferenceSlot(reference)
      slots[reference] = slot
      return slot
    }
  }

  /// A `$ref`'s target compiled, or nil when it names nothing: a URI fragment (RFC 3986:
  /// percent-decoded) holding a JSON pointer (RFC 6901: `~0`/`~1` unescaped, empty tokens kept as
  /// empty keys) into the document.
  func target(of reference: String) -> SchemaNode? {
    guard reference.hasPrefix("#"), let fragment = PercentEncoding.decode(reference.dropFirst()),
      let pointer = JSONPointer(parsing: fragment), let target = pointer.value(in: document)
    else { return nil }
    return node(for: target, at: pointer)
  }

  /// A schema a caller passed, compiled once. It is known by its members' storage, which the entry
  /// keeps alive, so the same storage is the same schema: comparing schemas by value would cost a
  /// walk of each, and JSON equality (members in any order, strings by canonical equivalence)
  /// would take schemas that check differently for one another.
  func passedNode(for schema: JSONValue) -> SchemaNode {
    guard case .object(let rules) = schema.plain else { return node(for: schema) }
    let identity = rules.members.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    if let known = passed.withLock({ $0[identity]?.node }) { return known }
    let compiled = node(for: schema)
    passed.withLock { passed in
      if passed.count < Self.passedLimit { passed[identity] = Passed(schema: schema, node: compiled) }
    }
    return compiled
  }
}

/// Where a keyword being compiled sits: its child schemas are compiled at their own places, so a
/// failure can say which keyword of the document it broke.
struct SchemaScope {
  let compiler: SchemaCompiler
  /// The schema object holding the keyword.
  let schema: JSONPointer
  let keyword: String

  var location: JSONPointer { schema.appending(keyword) }

  /// A schema inside the keyword's value: the value itself, or the member or item `tokens` name.
  func node(for child: JSONValue, at tokens: String...) -> SchemaNode {
    compiler.node(for: child, at: location.appending(JSONPointer(tokens)))
  }

  /// A schema another keyword of the same object holds (`if` reads `then` and `else`).
  func node(for child: JSONValue, beside sibling: String) -> SchemaNode {
    compiler.node(for: child, at: schema.appending(sibling))
  }

  /// A pointer into the document as a URI fragment, as `$ref` writes one.
  static func fragment(_ pointer: JSONPointer) -> String { "#" + pointer.description }
}
