/// The text of a statement, as the statement cache knows it. A literal, or a text made once and
/// kept (`SQL(once:)` in a `static let`), is found by its address: hashing a pointer, where
/// hashing the text would read a few hundred bytes on every run (a dismissal runs seven). A text
/// made anew for each run is found by its contents.
struct SQL: Hashable, Sendable, ExpressibleByStringLiteral {
  private enum Key: Hashable {
    case address(Int)
    case contents(String)
  }

  /// Keeps a text made once at the address its key names.
  private final class Kept: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
  }

  private let key: Key
  private let literal: StaticString?
  private let kept: Kept?

  init(stringLiteral literal: StaticString) {
    kept = nil
    if literal.hasPointerRepresentation {
      key = .address(Int(bitPattern: literal.utf8Start))
      self.literal = literal
    } else {
      key = .contents(literal.description)
      self.literal = nil
    }
  }

  /// A text made anew for each run (its filters vary): found by what it says.
  init(_ text: String) {
    key = .contents(text)
    literal = nil
    kept = nil
  }

  /// A text made once and kept for the life of the program: found by identity. Made per run,
  /// each would be a statement of its own in the cache.
  init(once text: String) {
    let kept = Kept(text)
    key = .address(Int(bitPattern: Unmanaged.passUnretained(kept).toOpaque()))
    literal = nil
    self.kept = kept
  }

  /// The statement's text, made when it is prepared or reported.
  var text: String {
    if let literal { return literal.description }
    if let kept { return kept.text }
    guard case .contents(let text) = key else { preconditionFailure("an address keeps its text") }
    return text
  }

  static func == (left: SQL, right: SQL) -> Bool { left.key == right.key }
  func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
