import JSON

/// A result or a notification as an older revision knows it: what the revision lacks (titles,
/// structured output, tool annotations, progress messages) is left out, so every frame validates
/// against the schema of the revision negotiated. The handlers answer in the newest revision; this
/// is the one place that knows what each older one lacks.
enum Downlevel {
  static func shaped(_ method: String, _ result: JSONValue, for revision: String) -> JSONValue {
    let features = Revision.Features(revision)
    var dropped: Set<String> = []
    if !features.titles { dropped.insert("title") }
    if !features.structuredOutput { dropped.insert("outputSchema") }
    switch method {
    case "tools/list":
      return mapping(result, "tools", dropping: features.toolAnnotations ? dropped : dropped.union(["annotations"]))
    case "resources/list": return mapping(result, "resources", dropping: dropped)
    case "resources/templates/list": return mapping(result, "resourceTemplates", dropping: dropped)
    case "prompts/list": return mapping(result, "prompts", dropping: dropped)
    case "tools/call" where !features.structuredOutput: return without(result, ["structuredContent"])
    default: return result
    }
  }

  /// The params of notification `method` for `revision`.
  static func notification(_ method: String, _ params: JSONValue, for revision: String) -> JSONValue {
    guard method == "notifications/progress", !Revision.Features(revision).progressMessages else { return params }
    return without(params, ["message"])
  }

  /// `serverInfo` for `revision`: its title only where the revision has titles.
  static func serverInfo(_ info: JSONValue, for revision: String) -> JSONValue {
    Revision.Features(revision).titles ? info : without(info, ["title"])
  }

  /// `result` with `dropped` members taken off each item of its array `member`.
  private static func mapping(_ result: JSONValue, _ member: String, dropping dropped: Set<String>) -> JSONValue {
    guard !dropped.isEmpty, var object = result.objectValue, let items = object[member]?.arrayValue else {
      return result
    }
    object[member] = .array(items.map { without($0, dropped) })
    return .object(object)
  }

  private static func without(_ value: JSONValue, _ dropped: Set<String>) -> JSONValue {
    value.objectValue.map { .object($0.removing(dropped)) } ?? value
  }
}
