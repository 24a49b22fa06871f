/// The lines two texts differ in, as `diff -u` shows them: hunks of removed (`-`) and added (`+`)
/// lines with three lines of context around each, so a changed snapshot reads as what changed.
///
/// The lines kept are a longest common subsequence, found by dynamic programming: snapshots are a
/// few hundred lines at most, and two texts too long for that (over a million line pairs) are
/// shown as all of one removed and all of the other added.
enum LineDiff {
  static func unified(_ old: String, _ new: String, oldName: String, newName: String) -> String {
    let (before, after) = (lines(old), lines(new))
    let edits = script(before, after)
    var out = "--- \(oldName)\n+++ \(newName)\n"
    for hunk in hunks(edits, context: 3) {
      let removedStart = hunk.first.map { $0.old } ?? 0
      let addedStart = hunk.first.map { $0.new } ?? 0
      let removedCount = hunk.count { $0.kind != .added }
      let addedCount = hunk.count { $0.kind != .removed }
      out += "@@ -\(removedStart + 1),\(removedCount) +\(addedStart + 1),\(addedCount) @@\n"
      for edit in hunk {
        switch edit.kind {
        case .kept: out += " " + before[edit.old] + "\n"
        case .removed: out += "-" + before[edit.old] + "\n"
        case .added: out += "+" + after[edit.new] + "\n"
        }
      }
    }
    return out
  }

  struct Edit {
    enum Kind { case kept, removed, added }
    let kind: Kind
    /// The line's index in the old text (for an added line, the old line it comes before).
    let old: Int
    /// The line's index in the new text (for a removed line, the new line it comes before).
    let new: Int
  }

  private static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Every line of both texts in order, each kept, removed or added.
  static func script(_ old: [String], _ new: [String]) -> [Edit] {
    let (n, m) = (old.count, new.count)
    guard n * m <= 1_000_000 else {
      return old.indices.map { Edit(kind: .removed, old: $0, new: 0) }
        + new.indices.map { Edit(kind: .added, old: n, new: $0) }
    }
    // common[i][j]: the longest common subsequence of old[i...] and new[j...].
    var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var edits: [Edit] = []
    var (i, j) = (0, 0)
    while i < n || j < m {
      if i < n, j < m, old[i] == new[j] {
        edits.append(Edit(kind: .kept, old: i, new: j))
        (i, j) = (i + 1, j + 1)
      } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
        // Of a changed line, the old one first, as diff shows it.
        edits.append(Edit(kind: .removed, old: i, new: j))
        i += 1
      } else {
        edits.append(Edit(kind: .added, old: i, new: j))
        j += 1
      }
    }
    return edits
  }

  /// The changes with `context` kept lines around each; changes closer than twice that share a hunk.
  private static func hunks(_ edits: [Edit], context: Int) -> [[Edit]] {
    let changed = edits.indices.filter { edits[$0].kind != .kept }
    var hunks: [[Edit]] = []
    var index = 0
    while index < changed.count {
      let start = max(changed[index] - context, 0)
      var last = changed[index]
      while index + 1 < changed.count, changed[index + 1] - last <= 2 * context {
        index += 1
        last = changed[index]
      }
      hunks.append(Array(edits[start...min(last + context, edits.count - 1)]))
      index += 1
    }
    return hunks
  }
}
