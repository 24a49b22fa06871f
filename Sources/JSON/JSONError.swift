/// Why bytes could not be read as JSON, with where it happened.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in the categories a caller acts on.
  public enum Kind: String, Sendable, Hashable {
    /// Not JSON at all: a syntax error or premature end of input.
    case syntax
    /// A string that is not valid UTF-8.
    case invalidUTF8
    /// The same key twice in one object; refused so a message cannot mean two things.
    case duplicateKey
    /// `\u0000` inside an object key: refused, as keys are compared as C strings by the parser.
    case nulInKey
    /// An integer that does not fit in 64 bits (a documented limit of the parser).
    case numericOverflow
    /// Nesting deeper than the configured limit.
    case tooDeep
    /// The parser ran out of memory or failed for another reason.
    case other
    /// The caller cancelled the read before it finished (`isCancelled` said so).
    case cancelled
  }

  public var kind: Kind
  public var message: String
  /// 1-based line and column, and 0-based byte offset, where the parser stopped (-1 when unknown).
  public var line: Int
  public var column: Int
  public var position: Int

  public init(kind: Kind, message: String, line: Int = -1, column: Int = -1, position: Int = -1) {
    self.kind = kind
    self.message = message
    self.line = line
    self.column = column
    self.position = position
  }

  public var description: String {
    position >= 0 ? "\(message) (line \(line), column \(column), byte \(position))" : message
  }
}
