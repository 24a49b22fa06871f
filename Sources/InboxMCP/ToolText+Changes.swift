import JSON

extension ToolText {
  /// `list_changes`: one change a line, then the cursor to pass back as `since`.
  static func changes(_ result: JSONValue) -> String {
    var lines = (result["changes"]?.arrayValue ?? []).map { change -> String in
      let fields = (change["fields"]?.arrayValue ?? []).compactMap(\.stringValue)
      return "\(change["change"]?.stringValue ?? "?") \(change["id"]?.stringValue ?? "?")"
        + (fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))")
    }
    if lines.isEmpty { lines.append("no changes") }
    let more = result["more"]?.boolValue == true ? " (more follow: call again with it)" : ""
    lines.append("cursor: \(result["cursor"]?.stringValue ?? "")\(more)")
    return lines.joined(separator: "\n")
  }
}
