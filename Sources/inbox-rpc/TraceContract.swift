import InboxServer
import JSON
import JSONSchema

/// Checks a trace against the contract in Schemas/openrpc.json: every request and notification
/// the host sent (method known, params valid), every reply (matched to its request by id) against
/// the method's result schema, and every notification of the server against its params.
struct TraceContract {
  private let methods: [String: JSONValue]
  private let validator: SchemaValidator

  init(document: JSONValue = InboxServer.contract) {
    var methods: [String: JSONValue] = [:]
    for method in document["methods"]?.arrayValue ?? [] {
      if let name = method["name"]?.stringValue { methods[name] = method }
    }
    self.methods = methods
    validator = SchemaValidator(document: document)
  }

  /// Every finding in `log`, in trace order; `file` names it in each finding.
  func check(_ log: TraceLog, file: String) -> [TraceFinding] {
    var run = TraceCheck(file: file, contract: self)
    for gap in log.gaps {
      let dropped = gap.reason.contains("dropped")
      run.add(gap.line, nil, "frame", dropped ? "trace-gap" : "trace-record", dropped ? .warning : .error, gap.reason)
    }
    for record in log.records { run.check(record) }
    run.finish()
    return run.findings.sorted { $0.line < $1.line }
  }

  func method(_ name: String) -> JSONValue? { methods[name] }

  /// The params of a message against its method's descriptors: `path` prefixes each finding's path.
  func paramsProblems(_ message: JSONValue, method: JSONValue, path: String) -> [(String, String, String)] {
    let descriptors = method["params"]?.arrayValue ?? []
    let given: JSONObject
    switch message["params"] {
    case nil, .null?: given = [:]
    case .object(let object)?: given = object
    default: return [(path + "params", "params", "params are by name: send an object")]
    }
    var problems: [(String, String, String)] = []
    for descriptor in descriptors {
      guard let name = descriptor["name"]?.stringValue else { continue }
      guard let value = given[name], !value.isNull else {
        if descriptor["required"]?.boolValue == true {
          problems.append((path + "params." + name, "params", "required"))
        }
        continue
      }
      if let schema = descriptor["schema"],
        let violation = validator.violation(of: value, against: schema, at: path + "params." + name)
      {
        problems.append((violation.path, "params", "\(violation.message) (\(violation.rule))"))
      }
    }
    if method["x-additional-params"]?.boolValue != true {
      let known = Set(descriptors.compactMap { $0["name"]?.stringValue })
      for key in given.keys where !known.contains(key) {
        problems.append((path + "params." + key, "params", "unknown parameter"))
      }
    }
    return problems
  }

  /// A reply's result against the method's result schema.
  func resultProblem(_ result: JSONValue, method: JSONValue, path: String) -> (String, String)? {
    guard let schema = method["result"]?["schema"],
      let violation = validator.violation(of: result, against: schema, at: path + "result")
    else { return nil }
    return (violation.path, "\(violation.message) (\(violation.rule))")
  }
}
