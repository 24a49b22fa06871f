/// The text of a statement, as the statement cache knows it. A literal, or a text made once and
/// kept (`SQL(once:)` in a `static let`), is found by identity: hashing a pointer, where hashing
/// the text would read a few hundred bytes on every run (a dismissal runs seven). A text made
/// anew for each run is found by its contents.
struct SQL: Hashable, Sendable, ExpressibleByStringLiteral {
  private enum Source: Sendable {
    case literal(StaticString)
    case kept(Kept)
    case made(String)
  }

  /// A text made once; its identity is the statement's.
  private final class Kept: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
  }

  private let source: Source

  init(stringLiteral literal: StaticString) {
    // A literal of one scalar has no address of its own; it is short enough to hash.
    source = literal.hasPointerRepresentation ? .literal(literal) : .made(literal.description)
  }

  /// A text made anew for each run (its filters vary): found by what it says.
  init(_ text: String) { source = .made(text) }

  /// A text made once and kept for the life of the program: found by identity. Made per run,
  /// each would be a statement of its own in the cache.
  init(once text: String) { source = .kept(Kept(text)) }

  /// The statement's text, made when it is prepared or reported.
  var text: String {
    switch source {
    case .literal(let literal): literal.description
    case .kept(let kept): kept.text
    case .made(let text): text
    }
  }

  static func == (left: SQL, right: SQL) -> Bool {
    switch (left.source, right.source) {
    case (.literal(let one), .literal(let other)): one.utf8Start == other.utf8Start
    case (.kept(let one), .kept(let other)): one === other
    case (.made(let one), .made(let other)): one == other
    default: false
    }
  }

  func hash(into hasher: inout Hasher) {
    switch source {
    case .literal(let literal): hasher.combine(literal.utf8Start)
    case .kept(let kept): hasher.combine(ObjectIdentifier(kept))
    case .made(let text): hasher.combine(text)
    }
  }
}
