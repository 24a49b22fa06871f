import JSON

/// A tool's schemas, derived from the contract (Schemas/openrpc.json) so that one source describes
/// both faces: the input is the method's params as one object, the output its result.
///
/// A host sends the tool list to its model in every conversation, so both travel lean, and each
/// stands alone without `$ref` (some hosts cannot follow one): every shape they refer to is written
/// in place (`ToolSchemaShape`). An input keeps what a model needs to call well, each param's and
/// member's description, types, bounds and enums; the titles and own descriptions of the shapes it
/// writes in place are left to the property that holds them; each property has one plain type and
/// none says null, the one shape every agent stack takes (an optional one is left out of
/// `required`). An output says what a result holds, its members and their types, and nothing more:
/// no annotations, bounds or closedness (the server's results are checked against the contract
/// itself), and a card, which eleven outputs return, as an object whose members the resource
/// `inbox://schemas/openrpc.json` gives in full.
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
    return ToolSchemaShape(contract: contract, side: .input).inlined(.object(schema))
  }

  /// The result schema of `method`, or the shape `shape` of the contract, as an object schema.
  static func output(of method: String? = nil, shape: String? = nil, in contract: JSONValue) -> JSONValue {
    var result: JSONValue = .object([:])
    if let method { result = Self.method(method, in: contract)?["result"]?["schema"] ?? .object([:]) }
    if let shape { result = ["$ref": .string(ToolSchemaShape.componentPrefix + shape)] }
    var schema = ToolSchemaShape(contract: contract, side: .output).inlined(result).objectValue ?? [:]
    if schema["type"] == nil { schema["type"] = "object" }
    return .object(schema)
  }

  /// A card as a tool's output gives it: an object, its members named by the contract.
  static let compactCard: JSONValue = [
    "type": "object", "description": "inbox://schemas/openrpc.json#/components/schemas/Card",
  ]

  private static func method(_ name: String, in contract: JSONValue) -> JSONValue? {
    contract["methods"]?.arrayValue?.first { $0["name"]?.stringValue == name }
  }
}
