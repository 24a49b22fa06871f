import JSON
import Synchronization

/// One `$ref` of a validator's schemas, and its target compiled on first use: a validator is made
/// at start-up or on the first params check, and most of a document's schemas are never followed.
///
/// Every `$ref` to the same text shares a slot, so a schema that refers to itself is compiled once
/// and walked as a loop (down to the depth limit), not unrolled.
final class ReferenceSlot: Sendable {
  let reference: String
  /// Set once; read without a lock by every thread that validates.
  private let target = AtomicLazyReference<Target>()

  /// The compiled target, or nil when the reference names nothing in the document.
  private final class Target: Sendable {
    let node: SchemaNode?
    init(_ node: SchemaNode?) { self.node = node }
  }

  init(_ reference: String) { self.reference = reference }

  /// The compiled target, nil when the reference names nothing.
  private func node(_ compiler: SchemaCompiler) -> SchemaNode? {
    (target.load() ?? target.storeIfNil(Target(compiler.target(of: reference)))).node
  }

  /// `$ref` at `place`: the value against the target, one level deeper.
  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    guard let node = node(compiler) else {
      return found.add(SchemaFailure(place, "$ref", .text("the schema refers to \(reference), which is missing")))
    }
    node.collect(value, at: place, depth: depth + 1, compiler, into: &found)
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    node(compiler)?.admits(value, depth: depth + 1, compiler) ?? false
  }
}

/// `$ref` in a schema object. Its slot is unowned: a recursive target holds its own slot, and a
/// strong reference would keep the loop alive past its validator. The compiler owns every slot and
/// every check is run by the compiler it came from, so the slot outlives each use.
final class ReferenceCheck: SchemaCheck {
  unowned(unsafe) let slot: ReferenceSlot

  init(_ slot: ReferenceSlot) { self.slot = slot }

  func collect(
    _ value: JSONValue, at place: SchemaPlace, depth: Int, _ compiler: SchemaCompiler, into found: inout SchemaFailures
  ) {
    slot.collect(value, at: place, depth: depth, compiler, into: &found)
  }

  func admits(_ value: JSONValue, depth: Int, _ compiler: SchemaCompiler) -> Bool {
    slot.admits(value, depth: depth, compiler)
  }
}
