import InboxApp
import JSON
import JSONRPC
import JSONSchema

/// The params each method accepts, read from the OpenRPC document, checked before its handler
/// runs: a violation answers -32602 naming the parameter's path and the rule broken.
///
/// Params are by name. A null optional counts as absent (the schemas allow it; `ParamsReader` reads
/// it so); a null required param is missing. Unknown params are
/// refused unless the method is marked `x-additional-params` (initialize, rpc.ping).
public struct ParamsContract: Sendable {
  struct Descriptor: Sendable {
    var name: String
    var required: Bool
    var schema: JSONValue
  }

  let descriptors: [Descriptor]
  let allowsAdditional: Bool
  let validator: SchemaValidator

  /// Every method's contract, read from the embedded document on first use rather than at start-up:
  /// parsing the document costs more than the rest of start-up, and `rpc.ping` never needs it.
  private static let contracts = all(in: Contract.document)

  /// The contract of a method, nil for a method the document does not describe.
  public static func forMethod(_ name: String) -> ParamsContract? { contracts[name] }

  /// The contract of every method in `document`, by name.
  static func all(in document: JSONValue) -> [String: ParamsContract] {
    let validator = SchemaValidator(document: document)
    var contracts: [String: ParamsContract] = [:]
    for method in document["methods"]?.arrayValue ?? [] {
      guard let name = method["name"]?.stringValue else { continue }
      let descriptors = (method["params"]?.arrayValue ?? []).compactMap { param -> Descriptor? in
        guard let name = param["name"]?.stringValue, let schema = param["schema"] else { return nil }
        return Descriptor(name: name, required: param["required"]?.boolValue ?? false, schema: schema)
      }
      contracts[name] = ParamsContract(
        descriptors: descriptors, allowsAdditional: method["x-additional-params"]?.boolValue ?? false,
        validator: validator)
    }
    return contracts
  }

  public func check(_ params: Params) throws(RPCError) { try check(params, only: nil) }

  /// `check`, taking only the params named in `only` (nil: all of them) as known: an MCP tool that
  /// runs this method on part of its params (`lint_payload`) refuses the rest in the same words.
  public func check(_ params: Params, only: [String]?) throws(RPCError) {
    let given: JSONObject
    switch params.raw {
    case nil: given = [:]
    case .object(let object)?: given = object
    case .array(let items)?:
      if allowsAdditional && descriptors.isEmpty { return }
      if items.isEmpty && descriptors.allSatisfy({ !$0.required }) { return }
      throw RPCError.invalidParams("params", "params are by name: send an object, not an array")
    default: return
    }
    let known = only.map { names in descriptors.filter { names.contains($0.name) } } ?? descriptors
    for descriptor in known {
      guard let value = given[descriptor.name], !value.isNull else {
        if descriptor.required { throw RPCError.invalidParams(descriptor.name, "required") }
        continue
      }
      if let violation = validator.violation(of: value, against: descriptor.schema, at: descriptor.name) {
        throw Self.refusal(violation, in: value)
      }
    }
    guard !allowsAdditional else { return }
    // A method has a few params: a search of them costs less than building a set per request.
    if let unknown = given.members.first(where: { member in !known.contains { $0.name == member.key } }) {
      let expected = known.isEmpty ? "none" : known.map(\.name).joined(separator: ", ")
      throw Self.refusal(unknown.key, "unknown parameter (expected: \(expected))", sent: unknown.value)
    }
  }

  /// -32602 for a value its schema refuses: where (`param`), what was expected (`reason`, the
  /// keyword in `rule`) and what was sent (`sent`), the data both faces give. A missing member has
  /// nothing sent; its pointer names it.
  static func refusal(_ violation: SchemaViolation, in value: JSONValue) -> RPCError {
    let sent = violation.rule == "required" ? nil : violation.pointer.value(in: value)
    return refusal(violation.path, violation.message, rule: violation.rule, sent: sent)
  }

  /// -32602 `{param, reason, rule?, sent?}`, its message saying the same: `sent` as compact JSON, cut short.
  static func refusal(_ param: String, _ reason: String, rule: String? = nil, sent: JSONValue?) -> RPCError {
    var data: JSONObject = ["param": .string(param), "reason": .string(reason)]
    var message = "Invalid params: \(param): \(reason)"
    if let rule { data["rule"] = .string(rule) }
    if let sent {
      data["sent"] = .string(shown(sent))
      message += " (sent \(shown(sent)))"
    }
    return RPCError(.invalidParams, message, data: .object(data))
  }

  /// A value as compact JSON, at most `maxShown` characters, control characters escaped.
  static func shown(_ value: JSONValue) -> String {
    let text = value.jsonString
    guard text.count > maxShown else { return text.escapingControlCharacters }
    return (text.prefix(maxShown - 1) + "…").escapingControlCharacters
  }

  static let maxShown = 120
}
