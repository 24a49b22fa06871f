import JSON

/// Where in the checked value a keyword is looking: the path people read in messages
/// (`payload.buttons[2].title`) and the JSON pointer tools map to a file position.
///
/// A place is a step from its parent, and its path and pointer are spelled out only when asked
/// for (a violation's): a conforming value, the common case, costs one small node per step.
struct SchemaPlace: Sendable {
  private final class Node: Sendable {
    let parent: Node?
    let step: Step
    init(_ parent: Node?, _ step: Step) {
      self.parent = parent
      self.step = step
    }
  }

  private enum Step: Sendable {
    case root(path: String, pointer: JSONPointer)
    case member(String)
    case item(Int)
  }

  private let node: Node

  init(path: String, pointer: JSONPointer) { node = Node(nil, .root(path: path, pointer: pointer)) }

  private init(_ node: Node) { self.node = node }

  func member(_ key: String) -> SchemaPlace { SchemaPlace(Node(node, .member(key))) }

  func item(_ index: Int) -> SchemaPlace { SchemaPlace(Node(node, .item(index))) }

  /// The steps from the root, root first.
  private var steps: [Step] {
    var steps: [Step] = []
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
}

extension SchemaViolation {
  init(_ place: SchemaPlace, _ rule: String, _ message: String) {
    self.init(path: place.path, rule: rule, message: message, pointer: place.pointer)
  }
}
