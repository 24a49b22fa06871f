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

  func node(for schema: JSONValue) -> SchemaNode {
    switch schema.plain {
    case .bool(true): return .anything
    case .bool(false): return .nothing
    case .object(let rules):
      var checks: [any SchemaCheck] = []
      if let reference = rules["$ref"]?.stringValue { checks.append(ReferenceCheck(slot(for: reference))) }
      for keyword in SchemaValidator.keywords {
        if let value = rules[keyword.name], let check = keyword.compile(value, rules, self) { checks.append(check) }
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
    return node(for: target)
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
