import JSON

/// `textDocument/foldingRange`: each object or array over more than two lines folds from its
/// opening line to the line before its closing bracket (which stays in sight), outermost first,
/// at most the client's `rangeLimit` of them.
enum FoldingRanges {
  static func json(_ document: TextDocument, limit: Int?) -> JSONValue {
    var lines: [(start: Int, end: Int)] = []
    for container in JSONContainers.all(document.bytes) {
      let start = document.position(ofOffset: container.open, encoding: .utf8).line
      let end = document.position(ofOffset: container.close, encoding: .utf8).line - 1
      if end > start { lines.append((start, end)) }
    }
    lines.sort { $0.start != $1.start ? $0.start < $1.start : $0.end > $1.end }
    // Two containers opening on one line (`[{`) fold the same lines: the outer one is kept.
    var seen = Set<Int>()
    let ranges = lines.filter { seen.insert($0.start).inserted }.prefix(max(limit ?? Int.max, 0))
    return .array(ranges.map { ["startLine": .int(Int64($0.start)), "endLine": .int(Int64($0.end))] })
  }
}
