import JSON

/// How `replay` compares a recorded reply with the replayed one: equal but for the reply's own
/// `id` and for times, where a time is any string that is an RFC 3339 date-time
/// (`2026-11-30T09:05:00Z`, with fractions or an offset): two times match whatever their values.
/// A feed cursor (`nextCursor`) names the store it pages, so it is an id too: recorded and
/// replayed cursors are paired in `cursors`, and the host's later frames get the replayed one.
/// Objects compare member by member whatever their order.
struct ReplyDiff {
  /// Recorded cursor -> the replayed one.
  private(set) var cursors: [String: String] = [:]

  /// The first place where `recorded` and `replayed` differ, or nil when they match.
  mutating func firstDifference(_ recorded: JSONValue, _ replayed: JSONValue) -> String? {
    guard case .object(var left) = recorded, case .object(var right) = replayed else {
      return difference(recorded, replayed, at: "")
    }
    left["id"] = nil
    right["id"] = nil
    return difference(.object(left), .object(right), at: "")
  }

  /// A frame of the host's with the cursors it got from the recorded server replaced by the replayed
  /// ones: each string that is a recorded cursor, one look-up each (never a pass per cursor).
  func substituted(_ frame: JSONValue) -> JSONValue {
    guard !cursors.isEmpty else { return frame }
    switch frame {
    case .string(let text): return cursors[text].map(JSONValue.string) ?? frame
    case .array(let items): return .array(items.map(substituted))
    case .object(let object):
      var result = JSONObject()
      for member in object { result[member.key] = substituted(member.value) }
      return .object(result)
    default: return frame
    }
  }

  private mutating func difference(_ left: JSONValue, _ right: JSONValue, at path: String) -> String? {
    if path.hasSuffix("nextCursor"), case .string(let recorded) = left, case .string(let replayed) = right {
      cursors[recorded] = replayed
      return nil
    }
    switch (left, right) {
    case (.object(let a), .object(let b)):
      for member in a {
        let place = path.isEmpty ? member.key : path + "." + member.key
        guard let other = b[member.key] else { return "\(place): recorded, missing in the replay" }
        if let found = difference(member.value, other, at: place) { return found }
      }
      if let extra = b.keys.first(where: { a[$0] == nil }) {
        return "\(path.isEmpty ? extra : path + "." + extra): only in the replay"
      }
      return nil
    case (.array(let a), .array(let b)):
      for (index, pair) in zip(a, b).enumerated() {
        if let found = difference(pair.0, pair.1, at: "\(path)[\(index)]") { return found }
      }
      return a.count == b.count ? nil : "\(path): \(a.count) items recorded, \(b.count) in the replay"
    case (.string(let a), .string(let b)) where isTime(a) && isTime(b):
      return nil
    default:
      guard left.plain != right.plain else { return nil }
      return "\(path.isEmpty ? "frame" : path): recorded \(excerpt(left)), replayed \(excerpt(right))"
    }
  }

  private func excerpt(_ value: JSONValue) -> String {
    let text = value.jsonString
    return text.count > 120 ? String(text.prefix(120)) + "…" : text
  }

  /// `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`.
  func isTime(_ text: String) -> Bool {
    text.wholeMatch(of: /\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})/) != nil
  }
}
