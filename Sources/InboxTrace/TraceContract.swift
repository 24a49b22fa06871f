import InboxApp
import InboxMCP
import JSON
import JSONSchema
import LintReport
import Posix

/// Checks a trace against the contract in Schemas/openrpc.json: every request and notification
/// the host sent (method known, params valid), every reply (matched to its request by id) against
/// the method's result schema, and every notification of the server against its params. An MCP
/// session's `tools/call` arguments and `structuredContent` are checked against the tool's schemas.
public struct TraceContract {
  private let methods: [String: JSONValue]
  private let validator: SchemaValidator
  private let tools: [String: (schemas: ToolContract.Schemas, input: SchemaValidator, output: SchemaValidator)]

  public init(document: JSONValue = Contract.document) {
    var methods: [String: JSONValue] = [:]
    for method in document["methods"]?.arrayValue ?? [] {
      if let name = method["name"]?.stringValue { methods[name] = method }
    }
    self.methods = methods
    validator = SchemaValidator(document: document)
    tools = ToolContract(contract: document).tools.mapValues { schemas in
      (schemas, SchemaValidator(document: schemas.input), SchemaValidator(document: schemas.output))
    }
  }

  /// Checks the trace at `path`: one pass, one line in memory at a time; `emit` hears each subject
  /// of the report as it is complete (`TraceCheck`).
  public func check(_ path: String, emit: @escaping (Report.Subject) -> Void) throws(SystemError) {
    var run = TraceCheck(file: path, contract: self, emit: emit)
    try TraceLog.read(path) { entry in
      run.take(entry)
      return true
    }
    run.finish()
  }

  func method(_ name: String) -> JSONValue? { methods[name] }

  /// A problem found in a message: where (a path in the frame and, from the validator, the exact
  /// pointer into the trace's record), the rule and why.
  struct Problem {
    var path: String
    var pointer: JSONPointer? = nil
    var rule: String
    var message: String
  }

  /// The params of a message against its method's descriptors: `path` prefixes each finding's
  /// path, `pointer` (the message's place in its record) each pointer.
  func paramsProblems(_ message: JSONValue, method: JSONValue, path: String, pointer: JSONPointer) -> [Problem] {
    let descriptors = method["params"]?.arrayValue ?? []
    let given: JSONObject
    switch message["params"] {
    case nil, .null?: given = [:]
    case .object(let object)?: given = object
    default: return [Problem(path: path + "params", rule: "params", message: "params are by name: send an object")]
    }
    var problems: [Problem] = []
    for descriptor in descriptors {
      guard let name = descriptor["name"]?.stringValue else { continue }
      guard let value = given[name], !value.isNull else {
        if descriptor["required"]?.boolValue == true {
          problems.append(Problem(path: path + "params." + name, rule: "params", message: "required"))
        }
        continue
      }
      let place = pointer.appending("params").appending(name)
      if let schema = descriptor["schema"],
        let violation = validator.violation(of: value, against: schema, at: path + "params." + name, pointer: place)
      {
        let message = "\(violation.message) (\(violation.rule))"
        problems.append(Problem(path: violation.path, pointer: violation.pointer, rule: "params", message: message))
      }
    }
    if method["x-additional-params"]?.boolValue != true {
      let known = Set(descriptors.compactMap { $0["name"]?.stringValue })
      for key in given.keys where !known.contains(key) {
        problems.append(Problem(path: path + "params." + key, rule: "params", message: "unknown parameter"))
      }
    }
    return problems
  }

  /// Whether `name` is a tool of the MCP face.
  func isTool(_ name: String) -> Bool { tools[name] != nil }

  /// A `tools/call`'s arguments against the tool's `inputSchema` (absent arguments are `{}`; a
  /// member sent as null is absent, as the server takes it: the input schemas say no null).
  func argumentsProblem(_ arguments: JSONValue?, tool name: String, path: String, pointer: JSONPointer) -> Problem? {
    guard let tool = tools[name],
      let violation = tool.input.violation(
        of: Self.nullsAbsent(arguments ?? [:]), against: tool.schemas.input, at: path + "params.arguments",
        pointer: pointer.appending("params").appending("arguments"))
    else { return nil }
    return Problem(
      path: violation.path, pointer: violation.pointer, rule: "params",
      message: "\(name): \(violation.message) (\(violation.rule))")
  }

  private static func nullsAbsent(_ arguments: JSONValue) -> JSONValue {
    guard case .object(let members) = arguments else { return arguments }
    return .object(members.removing(Set(members.keys.filter { members[$0] == .null })))
  }

  /// A tool's `structuredContent` against its `outputSchema` (a refused call, `isError`, has none to check).
  func structuredContentProblem(_ result: JSONValue, tool name: String, path: String, pointer: JSONPointer)
    -> Problem?
  {
    guard let tool = tools[name], result["isError"]?.boolValue != true, let content = result["structuredContent"],
      let violation = tool.output.violation(
        of: content, against: tool.schemas.output, at: path + "result.structuredContent",
        pointer: pointer.appending("result").appending("structuredContent"))
    else { return nil }
    return Problem(
      path: violation.path, pointer: violation.pointer, rule: "result",
      message: "\(name): \(violation.message) (\(violation.rule))")
  }

  /// A reply's result against the method's result schema.
  func resultProblem(_ result: JSONValue, method: JSONValue, path: String, pointer: JSONPointer) -> Problem? {
    guard let schema = method["result"]?["schema"],
      let violation = validator.violation(
        of: result, against: schema, at: path + "result", pointer: pointer.appending("result"))
    else { return nil }
    return Problem(
      path: violation.path, pointer: violation.pointer, rule: "result",
      message: "\(violation.message) (\(violation.rule))")
  }
}
