import JSON

/// A tool's schemas, derived from the contract (Schemas/openrpc.json) so that one source describes
/// both faces: the input is the method's params as one object, the output its result; the shapes
/// they refer to travel along in `$defs`, so each schema stands alone (JSON Schema 2020-12).
///
/// A host sends the tool list to its model in every session, so outputs travel lean: an output
/// schema checks what a result holds and carries no descriptions (the tool's description and the
/// contract say what it means), and the card, which seven outputs return, comes in a compact shape:
/// the members every card has, typed. Its full shape, one variant per kind, is the contract's
/// `Card`, served as the resource `inbox://schemas/openrpc.json`.
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
    return standalone(.object(schema), in: contract, bare: true)
  }

  /// Shapes given compact in tool schemas, and how.
  private static let compactShapes: [String: @Sendable (JSONValue) -> JSONValue] = ["Card": compactCard]

  /// `CardCommon`'s members, each with its type alone: what every card has, kind by kind.
  static func compactCard(in contract: JSONValue) -> JSONValue {
    let shapes = contract["components"]?["schemas"]
    let common = shapes?["CardCommon"] ?? [:]
    var properties = JSONObject()
    for member in common["properties"]?.objectValue ?? [:] {
      properties[member.key] = typeOnly(member.value, shapes: shapes)
    }
    let description = "Compact; in full: inbox://schemas/openrpc.json#/components/schemas/Card"
    return [
      "type": "object", "description": .string(description), "required": common["required"] ?? [],
      "properties": .object(properties),
    ]
  }

  /// A member's schema reduced to its type (and an enum's values): references and variants become
  /// the JSON types they allow.
  private static func typeOnly(_ schema: JSONValue, shapes: JSONValue?) -> JSONValue {
    if let ref = schema["$ref"]?.stringValue {
      let target = shapes?[String(ref.dropFirst(componentPrefix.count))] ?? [:]
      var out = JSONObject()
      if let type = target["type"] { out["type"] = type }
      if let values = target["enum"] { out["enum"] = values }
      return .object(out)
    }
    if let variants = (schema["allOf"] ?? schema["oneOf"] ?? schema["anyOf"])?.arrayValue {
      if variants.count == 1 { return typeOnly(variants[0], shapes: shapes) }
      let types = variants.flatMap { variant -> [JSONValue] in
        let type = typeOnly(variant, shapes: shapes)["type"]
        return type?.arrayValue ?? (type.map { [$0] } ?? [])
      }
      return types.isEmpty ? [:] : ["type": .array(types)]
    }
    var out = JSONObject()
    if let type = schema["type"] { out["type"] = type }
    if let values = schema["enum"] { out["enum"] = values }
    if let items = schema["items"] { out["items"] = typeOnly(items, shapes: shapes) }
    return .object(out)
  }

  private static func method(_ name: String, in contract: JSONValue) -> JSONValue? {
    contract["methods"]?.arrayValue?.first { $0["name"]?.stringValue == name }
  }

  private static let componentPrefix = "#/components/schemas/"

  /// `schema` with every `#/components/schemas/X` rewritten to `#/$defs/X` and those shapes
  /// (and the ones they refer to) copied into `$defs`; `bare` leaves out the contract's
  /// descriptions and titles.
  static func standalone(_ schema: JSONValue, in contract: JSONValue, bare: Bool = false) -> JSONValue {
    var needed: [String] = []
    let strip = { (node: JSONValue) in bare ? withoutAnnotations(node) : node }
    let rewritten = strip(rewrite(schema, collecting: &needed))
    var defs: JSONObject = [:]
    var queue = needed
    while let name = queue.popLast() {
      guard defs[name] == nil, let shape = contract["components"]?["schemas"]?[name] else { continue }
      if let compact = compactShapes[name] {
        defs[name] = compact(contract)
        continue
      }
      var more: [String] = []
      defs[name] = strip(rewrite(shape, collecting: &more))
      queue += more
    }
    guard !defs.isEmpty, var object = rewritten.objectValue else { return rewritten }
    object["$defs"] = .object(JSONObject(defs.keys.sorted().map { ($0, defs[$0]!) }))
    return .object(object)
  }

  /// `node` without its `description` and `title` annotations (members of `properties` of those
  /// names are schemas, not strings, and stay).
  private static func withoutAnnotations(_ node: JSONValue) -> JSONValue {
    switch node {
    case .object(let object):
      var out = JSONObject()
      for member in object
      where !((member.key == "description" || member.key == "title") && member.value.stringValue != nil) {
        out[member.key] = withoutAnnotations(member.value)
      }
      return .object(out)
    case .array(let items):
      return .array(items.map(withoutAnnotations))
    default:
      return node
    }
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
