import JSON

/// Where in the checked value a keyword is looking: the path people read in messages
/// (`payload.buttons[2].title`) and the JSON pointer tools map to a file position.
///
/// A place is a step from its parent, and its path and pointer are spelled out only when asked
/// for (the reported violation's). The last step is kept in the place itself and becomes a node
/// only when a place below it is made, so checking a leaf (most values are strings and numbers)
/// allocates nothing.
struct SchemaPlace: Sendable {
  private final class Node: Sendable {
    let parent: Node?
    let step: Step
    /// The pointer's token count here.
    let tokenCount: Int
    init(_ parent: Node?, _ step: Step, tokenCount: Int) {
      self.parent = parent
      self.step = step
      self.tokenCount = tokenCount
    }
  }

  private enum Step: Sendable {
    case root(path: String, pointer: JSONPointer)
    case member(String)
    case item(Int)

    var isEmptyMember: Bool {
      if case .member(let key) = self { return key.isEmpty }
      return false
    }
  }

  private let node: Node
  private let last: Step?

  init(path: String, pointer: JSONPointer) {
    node = Node(nil, .root(path: path, pointer: pointer), tokenCount: pointer.tokens.count)
    last = nil
  }

  private init(_ node: Node, _ last: Step) {
    self.node = node
    self.last = last
  }

  func member(_ key: String) -> SchemaPlace { SchemaPlace(settled, .member(key)) }

  func item(_ index: Int) -> SchemaPlace { SchemaPlace(settled, .item(index)) }

  /// This place as a node, for a step below it.
  private var settled: Node {
    guard let last else { return node }
    return Node(node, last, tokenCount: node.tokenCount + 1)
  }

  /// How many tokens the pointer has: the deeper, the closer a failing variant got.
  var tokenCount: Int { node.tokenCount + (last == nil ? 0 : 1) }

  /// The steps from the root, root first.
  private var steps: [Step] {
    var steps: [Step] = last.map { [$0] } ?? []
    var current: Node? = node
    while let at = current {
      steps.append(at.step)
      current = at.parent
    }
    return steps.reversed()
  }

  var path: String {
    var path = ""
    for step in steps {
      switch step {
      case .root(let root, _): path = root
      case .member(let key): path = path.isEmpty ? key : "\(path).\(key)"
      case .item(let index): path += "[\(index)]"
      }
    }
    return path
  }

  var pointer: JSONPointer {
    var tokens: [String] = []
    for step in steps {
      switch step {
      case .root(_, let root): tokens = root.tokens
      case .member(let key): tokens.append(key)
      case .item(let index): tokens.append(String(index))
      }
    }
    return JSONPointer(tokens)
  }

  /// Whether this place, `ancestor` or below it, spells the same `path` as `ancestor`, without
  /// spelling either: a step lengthens a path unless it is a member named "" below an empty path.
  func spellsSamePath(as ancestor: SchemaPlace) -> Bool {
    let below = tokenCount - ancestor.tokenCount
    guard below > 0 else { return true }
    return steps.suffix(below).allSatisfy(\.isEmptyMember) && ancestor.spellsEmptyPath
  }

  private var spellsEmptyPath: Bool {
    steps.allSatisfy { step in
      if case .root(let path, _) = step { return path.isEmpty }
      return step.isEmptyMember
    }
  }
}
