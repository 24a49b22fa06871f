import JSON

/// The params an OpenRPC document marks secret (`"x-secret": true` on a param or on a member of its
/// schema, through `$ref`s into `components/schemas`), as member paths by method: what a trace
/// replaces with a marker.
public enum SecretParams {
  public static func paths(in document: JSONValue) -> [String: [[String]]] {
    let shapes = document["components"]?["schemas"]?.objectValue ?? [:]
    var table: [String: [[String]]] = [:]
    for method in document["methods"]?.arrayValue ?? [] {
      guard let name = method["name"]?.stringValue else { continue }
      var found: [[String]] = []
      for param in method["params"]?.arrayValue ?? [] {
        guard let member = param["name"]?.stringValue else { continue }
        if isSecret(param) {
          found.append([member])
        } else if let schema = param["schema"] {
          collect(schema, at: [member], shapes: shapes, into: &found)
        }
      }
      if !found.isEmpty { table[name] = found }
    }
    return table
  }

  private static func isSecret(_ node: JSONValue) -> Bool { node["x-secret"]?.boolValue == true }

  private static func collect(
    _ schema: JSONValue, at path: [String], shapes: JSONObject, into found: inout [[String]], depth: Int = 0
  ) {
    guard depth < 32 else { return }
    if let reference = schema["$ref"]?.stringValue, let name = reference.split(separator: "/").last,
      let shape = shapes[String(name)]
    {
      collect(shape, at: path, shapes: shapes, into: &found, depth: depth + 1)
    }
    for combinator in ["allOf", "anyOf", "oneOf"] {
      for branch in schema[combinator]?.arrayValue ?? [] {
        collect(branch, at: path, shapes: shapes, into: &found, depth: depth + 1)
      }
    }
    for member in schema["properties"]?.objectValue ?? [:] {
      let memberPath = path + [member.key]
      if isSecret(member.value) {
        if !found.contains(memberPath) { found.append(memberPath) }
      } else {
        collect(member.value, at: memberPath, shapes: shapes, into: &found, depth: depth + 1)
      }
    }
  }
}
