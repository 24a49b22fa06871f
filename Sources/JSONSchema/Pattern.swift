/// The regular expressions of JSON Schema's `pattern`, in the ECMA-262 subset schemas use:
/// `^ $ . [...] [^...]` with ranges, escapes `\d \D \w \W \s \S` and escaped literals, groups `( )`
/// with `|`, and greedy `* + ? {n} {n,} {n,m}`. Unanchored, as `pattern` is: `^`/`$` anchor it.
/// Matching backtracks over Unicode scalars; patterns in schemas are short.
struct Pattern: Sendable {
  private indirect enum Node: Sendable {
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case start
    case end
    case sequence([Node])
    case alternatives([Node])
    case repeated(Node, min: Int, max: Int?)
  }

  private struct ScalarSet: Sendable {
    var negated = false
    var ranges: [ClosedRange<UInt32>] = []

    func contains(_ scalar: Unicode.Scalar) -> Bool {
      ranges.contains { $0.contains(scalar.value) } != negated
    }
  }

  /// Why a pattern could not be read.
  struct Invalid: Error {}

  private let root: Node

  init(_ source: String) throws(Invalid) {
    var parser = Parser(Array(source.unicodeScalars))
    root = try parser.alternatives()
    guard parser.atEnd else { throw Invalid() }
  }

  /// True when the pattern matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    for start in 0...scalars.count where Self.match(root, scalars, start, { _ in true }) { return true }
    return false
  }

  private static func match(_ node: Node, _ text: [Unicode.Scalar], _ at: Int, _ next: (Int) -> Bool) -> Bool {
    switch node {
    case .scalar(let scalar): return at < text.count && text[at] == scalar && next(at + 1)
    case .any: return at < text.count && text[at] != "\n" && next(at + 1)
    case .set(let set): return at < text.count && set.contains(text[at]) && next(at + 1)
    case .start: return at == 0 && next(at)
    case .end: return at == text.count && next(at)
    case .sequence(let nodes): return matchSequence(nodes[...], text, at, next)
    case .alternatives(let options): return options.contains { match($0, text, at, next) }
    case .repeated(let inner, let min, let max): return matchRepeat(inner, min, max, 0, text, at, next)
    }
  }

  private static func matchSequence(
    _ nodes: ArraySlice<Node>, _ text: [Unicode.Scalar], _ at: Int, _ next: (Int) -> Bool
  ) -> Bool {
    guard let first = nodes.first else { return next(at) }
    return match(first, text, at) { matchSequence(nodes.dropFirst(), text, $0, next) }
  }

  /// Greedy: one more repetition first (only if it consumes something), then stop when allowed.
  private static func matchRepeat(
    _ node: Node, _ min: Int, _ max: Int?, _ count: Int, _ text: [Unicode.Scalar], _ at: Int,
    _ next: (Int) -> Bool
  ) -> Bool {
    if max.map({ count < $0 }) ?? true,
      match(node, text, at, { end in end > at && matchRepeat(node, min, max, count + 1, text, end, next) })
    {
      return true
    }
    return count >= min && next(at)
  }

  // MARK: - Parsing

  private struct Parser {
    let source: [Unicode.Scalar]
    var position = 0

    init(_ source: [Unicode.Scalar]) { self.source = source }

    var atEnd: Bool { position == source.count }
    var peek: Unicode.Scalar? { atEnd ? nil : source[position] }

    mutating func take() -> Unicode.Scalar? {
      guard let scalar = peek else { return nil }
      position += 1
      return scalar
    }

    mutating func alternatives() throws(Invalid) -> Node {
      var options = [try sequence()]
      while peek == "|" {
        position += 1
        options.append(try sequence())
      }
      return options.count == 1 ? options[0] : .alternatives(options)
    }

    mutating func sequence() throws(Invalid) -> Node {
      var nodes: [Node] = []
      while let scalar = peek, scalar != "|", scalar != ")" {
        let atom = try self.atom()
        nodes.append(try quantified(atom))
      }
      return .sequence(nodes)
    }

    mutating func atom() throws(Invalid) -> Node {
      guard let scalar = take() else { throw Invalid() }
      switch scalar {
      case "(":
        if peek == "?" {  // (?:...) groups read as plain groups
          position += 1
          guard take() == ":" else { throw Invalid() }
        }
        let inner = try alternatives()
        guard take() == ")" else { throw Invalid() }
        return inner
      case "[": return .set(try set())
      case ".": return .any
      case "^": return .start
      case "$": return .end
      case "\\": return try escape()
      case "*", "+", "?", "{", "}", "]": throw Invalid()
      default: return .scalar(scalar)
      }
    }

    mutating func quantified(_ atom: Node) throws(Invalid) -> Node {
      switch peek {
      case "*":
        position += 1
        return .repeated(atom, min: 0, max: nil)
      case "+":
        position += 1
        return .repeated(atom, min: 1, max: nil)
      case "?":
        position += 1
        return .repeated(atom, min: 0, max: 1)
      case "{":
        position += 1
        let low = number()
        guard let low else { throw Invalid() }
        var high: Int? = low
        if peek == "," {
          position += 1
          high = number()
        }
        guard take() == "}", high.map({ $0 >= low }) ?? true else { throw Invalid() }
        return .repeated(atom, min: low, max: high)
      default:
        return atom
      }
    }

    mutating func number() -> Int? {
      var value: Int?
      while let scalar = peek, ("0"..."9").contains(scalar) {
        value = (value ?? 0) * 10 + Int(scalar.value - 48)
        position += 1
      }
      return value
    }

    mutating func escape() throws(Invalid) -> Node {
      guard let scalar = take() else { throw Invalid() }
      if let set = Self.classEscape(scalar) { return .set(set) }
      return .scalar(Self.literalEscape(scalar))
    }

    mutating func set() throws(Invalid) -> ScalarSet {
      var result = ScalarSet()
      if peek == "^" {
        result.negated = true
        position += 1
      }
      while let scalar = take() {
        if scalar == "]" { return result }
        var low = scalar
        if scalar == "\\" {
          guard let escaped = take() else { throw Invalid() }
          if let inner = Self.classEscape(escaped), !inner.negated {
            result.ranges += inner.ranges
            continue
          }
          low = Self.literalEscape(escaped)
        }
        if peek == "-", position + 1 < source.count, source[position + 1] != "]" {
          position += 1
          guard var high = take() else { throw Invalid() }
          if high == "\\" {
            guard let escaped = take() else { throw Invalid() }
            high = Self.literalEscape(escaped)
          }
          guard low.value <= high.value else { throw Invalid() }
          result.ranges.append(low.value...high.value)
        } else {
          result.ranges.append(low.value...low.value)
        }
      }
      throw Invalid()
    }

    static func classEscape(_ scalar: Unicode.Scalar) -> ScalarSet? {
      let digits: [ClosedRange<UInt32>] = [48...57]
      let word: [ClosedRange<UInt32>] = [48...57, 65...90, 95...95, 97...122]
      let space: [ClosedRange<UInt32>] = [9...13, 32...32, 0xA0...0xA0, 0x2028...0x2029, 0xFEFF...0xFEFF]
      switch scalar {
      case "d": return ScalarSet(negated: false, ranges: digits)
      case "D": return ScalarSet(negated: true, ranges: digits)
      case "w": return ScalarSet(negated: false, ranges: word)
      case "W": return ScalarSet(negated: true, ranges: word)
      case "s": return ScalarSet(negated: false, ranges: space)
      case "S": return ScalarSet(negated: true, ranges: space)
      default: return nil
      }
    }

    static func literalEscape(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
      switch scalar {
      case "n": return "\n"
      case "t": return "\t"
      case "r": return "\r"
      default: return scalar
      }
    }
  }
}
