import JSON

/// A tool's schemas, derived from the contract (Schemas/openrpc.json) so that one source describes
/// both faces: the input is the method's params as one object, the output its result; the shapes
/// they refer to travel along in `$defs`, so each schema stands alone (JSON Schema 2020-12).
enum ToolSchema {
  /// The params of `method` (or the ones named in `only`) as `{type: object, properties, required}`.
  static func input(of method: String, only: [String]? = nil, in contract: JSONValue) -> JSONValue {
    var properties: JSONObject = [:]
    var required: [JSONValue] = []
    for param in Self.method(method, in: contract)?["params"]?.arrayValue ?? [] {
      guard let name = param["name"]?.stringValue, let schema = param["schema"] else { continue }
      if let only, !only.contains(name) { continue }
      properties[name] = schema
      if param["required"]?.boolValue == true { required.append(.string(name)) }
    }
    var schema: JSONObject = ["type": "object", "properties": .object(properties)]
    if !required.isEmpty { schema["required"] = .array(required) }
    schema["additionalProperties"] = false
    return standalone(.object(schema), in: contract)
  }

  /// The result schema of `method`, or the shape `shape` of the contract, as an object schema.
  static func output(of method: String? = nil, shape: String? = nil, in contract: JSONValue) -> JSONValue {
    var result: JSONValue = .object([:])
    if let method { result = Self.method(method, in: contract)?["result"]?["schema"] ?? .object([:]) }
    if let shape { result = ["$ref": .string("#/components/schemas/\(shape)")] }
    var schema = result.objectValue ?? [:]
    if schema["type"] == nil { schema["type"] = "object" }
    return standalone(.object(schema), in: contract)
  }

  private static func method(_ name: String, in contract: JSONValue) -> JSONValue? {
    contract["methods"]?.arrayValue?.first { $0["name"]?.stringValue == name }
  }

  private static let componentPrefix = "#/components/schemas/"

  /// `schema` with every `#/components/schemas/X` rewritten to `#/$defs/X` and those shapes
  /// (and the ones they refer to) copied into `$defs`.
  static func standalone(_ schema: JSONValue, in contract: JSONValue) -> JSONValue {
    var needed: [String] = []
    let rewritten = rewrite(schema, collecting: &needed)
    var defs: JSONObject = [:]
    var queue = needed
    while let name = queue.popLast() {
      guard defs[name] == nil, let shape = contract["components"]?["schemas"]?[name] else { continue }
      var more: [String] = []
      defs[name] = rewrite(shape, collecting: &more)
      queue += more
    }
    guard !defs.isEmpty, var object = rewritten.objectValue else { return rewritten }
    object["$defs"] = .object(JSONObject(defs.keys.sorted().map { ($0, defs[$0]!) }))
    return .object(object)
  }

  private static func rewrite(_ node: JSONValue, collecting names: inout [String]) -> JSONValue {
    switch node {
    case .object(let object):
      var out = JSONObject()
      for member in object {
        if member.key == "$ref", let target = member.value.stringValue, target.hasPrefix(componentPrefix) {
          let name = String(target.dropFirst(componentPrefix.count))
          names.append(name)
          out["$ref"] = .string("#/$defs/\(name)")
        } else {
          out[member.key] = rewrite(member.value, collecting: &names)
        }
      }
      return .object(out)
    case .array(let items):
      return .array(items.map { rewrite($0, collecting: &names) })
    default:
      return node
    }
  }
}
