import JSON

/// A schema of the contract rewritten for one side of a tool (`ToolSchema` says why and how): each
/// `#/components/schemas/X` replaced by the shape X itself, and only what that side keeps.
struct ToolSchemaShape {
  enum Side {
    case input
    case output
  }

  static let componentPrefix = "#/components/schemas/"

  let contract: JSONValue
  let side: Side

  /// Keywords whose value is a schema, a list of schemas, or names mapped to schemas.
  private static let schemaKeywords: Set<String> = [
    "items", "not", "additionalProperties", "contains", "propertyNames", "if", "then", "else",
  ]
  /// Keywords whose schema is what a property holds, not the property itself.
  private static let heldKeywords: Set<String> = ["items", "additionalProperties"]
  private static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
  private static let schemaMapKeywords: Set<String> = ["properties", "patternProperties"]
  /// What an output keeps: what a result holds, and nothing that only bounds or explains it.
  private static let structural: Set<String> = [
    "type", "properties", "required", "items", "prefixItems", "enum", "const", "allOf", "anyOf", "oneOf", "not",
    "additionalProperties", "$ref",
  ]
  /// A member marked `x-command-line-only` (lint's findings) is never in a tool's result, and its
  /// output leaves it out.
  /// Shapes an output gives compact, and how.
  private static let compactOutputs: [String: JSONValue] = ["Card": ToolSchema.compactCard]

  func inlined(_ schema: JSONValue) -> JSONValue { inlined(schema, within: []) }

  /// `node` with its references written in place; `path`, the shapes being written around it.
  private func inlined(_ node: JSONValue, within path: Set<String>) -> JSONValue {
    guard let object = node.objectValue else { return node }  // `true` and `false` are schemas too
    var out = JSONObject()
    for member in object where keeps(member.key, member.value) {
      let key = member.key
      let value = member.value
      if Self.schemaKeywords.contains(key) {
        let inner = inlined(value, within: path)
        // An input's array items and other members are said by the property that holds them.
        let held = side == .input && Self.heldKeywords.contains(key)
        out[key] = held ? inner.objectValue.map { .object($0.removing(["description"])) } ?? inner : inner
      } else if Self.schemaListKeywords.contains(key), let items = value.arrayValue {
        out[key] = .array(items.map { inlined($0, within: path) })
      } else if Self.schemaMapKeywords.contains(key), let map = value.objectValue {
        let kept = map.filter { side == .input || $0.value["x-command-line-only"]?.boolValue != true }
        out[key] = .object(JSONObject(kept.map { ($0.key, inlined($0.value, within: path)) }))
      } else {
        out[key] = value
      }
    }
    if side == .input { out = Self.plainlyTyped(out) }
    if let target = out["$ref"]?.stringValue, target.hasPrefix(Self.componentPrefix) {
      out["$ref"] = nil
      out = Self.joined(shape(String(target.dropFirst(Self.componentPrefix.count)), within: path), out)
    }
    return .object(Self.flattened(out))
  }

  private func keeps(_ key: String, _ value: JSONValue) -> Bool {
    switch side {
    case .input: return key != "title" || value.stringValue == nil
    case .output: return Self.structural.contains(key) && !(key == "additionalProperties" && value.boolValue != nil)
    }
  }

  /// The shape `name`, written for this side; its own title and description are left to what refers
  /// to it. A shape met again inside itself allows anything there (the contract has none).
  private func shape(_ name: String, within path: Set<String>) -> JSONObject {
    if side == .output, let compact = Self.compactOutputs[name]?.objectValue { return compact }
    guard !path.contains(name), let shape = contract["components"]?["schemas"]?[name] else { return [:] }
    let written = inlined(shape, within: path.union([name])).objectValue ?? [:]
    return written.removing(["description"])
  }

  /// An input's `node` said with one plain `type` and without null, the one shape every agent stack
  /// takes: some read `["string", "null"]`, or an `anyOf` without a `type`, as a required string or
  /// fail on it. Leaving an optional member out is how a call omits it; an explicit null is still
  /// accepted, since calls are checked against the contract itself, where null means absent.
  private static func plainlyTyped(_ node: JSONObject) -> JSONObject {
    var out = node
    if let types = out["type"]?.arrayValue {
      let kept = types.filter { $0 != "null" }
      out["type"] = kept.count == 1 ? kept[0] : .array(kept)
    }
    if let values = out["enum"]?.arrayValue?.filter({ !$0.isNull }) {
      out["enum"] = .array(values)
      if out["type"] == nil, let type = values.first?.typeName, values.allSatisfy({ $0.typeName == type }) {
        out["type"] = .string(type)
      }
    }
    // Anything but null: what a payload is, and an object is what every one the tools take is in practice.
    if out["not"] == ["type": "null"] {
      out["not"] = nil
      if out["type"] == nil { out["type"] = "object" }
    }
    for keyword in ["anyOf", "oneOf"] {
      guard let branches = out[keyword]?.arrayValue else { continue }
      let kept = branches.filter { $0["type"] != "null" }
      guard kept.count == 1, let only = kept[0].objectValue else {
        out[keyword] = .array(kept)
        continue
      }
      out[keyword] = nil
      out = joined(only, out)
    }
    return out
  }

  /// The keywords of `shape` and of `siblings` (what stood beside the reference) as one schema; when
  /// both say the same keyword, the shape stays whole under `allOf` so that both still hold.
  private static func joined(_ shape: JSONObject, _ siblings: JSONObject) -> JSONObject {
    if Set(shape.keys).isDisjoint(with: siblings.keys) { return Self.concatenated(shape, siblings) }
    var out = siblings
    out["allOf"] = .array((siblings["allOf"]?.arrayValue ?? []) + [.object(shape)])
    return out
  }

  /// `allOf` of one schema (the contract's way to describe a reference in draft-07) said directly.
  private static func flattened(_ object: JSONObject) -> JSONObject {
    guard let only = object["allOf"]?.arrayValue, only.count == 1, let inner = only[0].objectValue else {
      return object
    }
    let rest = object.removing(["allOf"])
    return Set(inner.keys).isDisjoint(with: rest.keys) ? concatenated(inner, rest) : object
  }

  private static func concatenated(_ first: JSONObject, _ second: JSONObject) -> JSONObject {
    JSONObject((Array(first) + Array(second)).map { ($0.key, $0.value) })
  }
}
